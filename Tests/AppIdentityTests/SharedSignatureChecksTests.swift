import AppIdentity
import Foundation
import Testing
import WorldTestSupport

/// One signature check for every device: a second device reuses the first's, a device the
/// development profile leaves out still gets its exact refusal, and a check stands only so long.
struct SharedSignatureChecksTests {
    @Test func aCheckServesEveryListedDeviceAndNoOther() async throws {
        try await withBuiltWorld { built in
            let checks = SharedSignatureChecks(trust: try built.trustStore())
            let signed = try AppBundle(at: built.bundle("one.otherDevice")).signed
            // Listed: deviceB. The check made for it serves it again, from the cache.
            let first = checks.verify(signed, device: TestWorlds.deviceB)
            #expect(first.verified != nil && first.refusals.isEmpty)
            let again = checks.verify(signed, device: TestWorlds.deviceB)
            #expect(again.verified == first.verified && again.appID == first.appID && again.codeDirectory == first.codeDirectory)
            // Not listed: deviceA gets the whole check and its refusal, though the files verified.
            let refused = checks.verify(signed, device: TestWorlds.deviceA)
            #expect(refused.verified == nil && refused.refusals.map(\.rule) == [.deviceNotProvisioned], "\(refused.refusals)")
            // Past the profile's end the cached check does not stand.
            let later = checks.verify(signed, device: TestWorlds.deviceB, at: Date().addingTimeInterval(400 * 86_400))
            #expect(later.verified == nil && later.refusals.contains { $0.rule == .profileDates })
            // Nor past its age: the files are checked again (and still verify today).
            let aged = checks.verify(signed, device: TestWorlds.deviceB, at: Date().addingTimeInterval(SharedSignatureChecks.maximumAge + 1))
            #expect(aged.verified != nil)
        }
    }

    @Test func changedFilesAreCheckedAgain() async throws {
        try await withBuiltWorld { built in
            let checks = SharedSignatureChecks(trust: try built.trustStore())
            var signed = try AppBundle(at: built.bundle("one.good")).signed
            #expect(checks.verify(signed, device: TestWorlds.deviceA).verified != nil)
            signed.codeSignature[signed.codeSignature.count / 2] ^= 0xFF
            #expect(checks.verify(signed, device: TestWorlds.deviceA).verified == nil, "other bytes are another key")
        }
    }
}
