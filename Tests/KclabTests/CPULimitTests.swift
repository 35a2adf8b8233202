import Testing

@testable import LabControl

/// What a shard's CPU group is set to: a quota over a 100 ms period, in cgroup v2's one file or
/// v1's two; never a quota the kernel refuses (under 1 ms).
@Suite struct CPULimitTests {
    @Test func aQuarterOfACoreIsTwentyFiveMillisecondsInEachHundred() {
        #expect(CPULimit.settings(cores: 0.25, version2: true).map(\.file) == ["cpu.max"])
        #expect(CPULimit.settings(cores: 0.25, version2: true).map(\.value) == ["25000 100000"])
        let version1 = CPULimit.settings(cores: 1.5, version2: false)
        #expect(version1.map(\.file) == ["cpu.cfs_period_us", "cpu.cfs_quota_us"])
        #expect(version1.map(\.value) == ["100000", "150000"])
        #expect(CPULimit.settings(cores: 0.001, version2: true).map(\.value) == ["1000 100000"])
    }
}
