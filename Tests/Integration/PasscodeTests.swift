import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// A device's passcode set and removed at run time, with iOS's consequences.
@Suite(.serialized) struct PasscodeTests {
    typealias W = IntegrationWorlds

    @Test func removingThePasscodeDeletesWhenPasscodeSetItems() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let app = "com.example.AppOne"
            func item(_ account: String, _ protection: String) -> [String: SecValue] {
                ["class": .string("genp"), "acct": .string(account), "pdmn": .string(protection), "v_Data": .data(Data(account.utf8))]
            }
            func found(_ account: String) throws -> Int32? {
                try lab.status(.copyMatching, on: W.phone, as: app, ["class": .string("genp"), "acct": .string(account)])
            }
            #expect(try lab.status(.add, on: W.phone, as: app, item("bound", "akpu")) == 0)
            #expect(try lab.status(.add, on: W.phone, as: app, item("kept", "ak")) == 0)

            let removed = try lab.kclab(["device", "remove-passcode", "--device", W.phone])
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(try found("bound") == -25300, "the when-passcode-set item went with the passcode")
            #expect(try found("kept") == 0, "other items stay")
            #expect(try lab.status(.add, on: W.phone, as: app, item("again", "akpu")) == -25293, "none can be added without a passcode")
            let locked = try lab.kclab(["device", "lock", "--device", W.phone])
            #expect(locked.status == 1 && locked.stderr.contains("has no passcode, so it cannot lock"), "\(locked.stdout)\(locked.stderr)")

            #expect(try lab.kclab(["device", "set-passcode", "--device", W.phone]).status == 0)
            #expect(try lab.status(.add, on: W.phone, as: app, item("again", "akpu")) == 0)
        }
    }
}
