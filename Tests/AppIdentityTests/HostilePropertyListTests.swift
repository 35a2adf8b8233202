import AppIdentity
import Foundation
import Testing

/// Property lists and entitlements shaped to cost more than their size (issue 24, point 1): a
/// binary property list whose objects are shared, and entitlement arrays checked element by
/// element against a long profile array.
@Suite struct HostilePropertyListTests {
    /// A binary property list (`bplist00`) whose root dictionary holds `{"k": A1}`, where each
    /// array A(i) is `[A(i+1), A(i+1)]` and the last holds a string: `depth` levels written once
    /// each, standing for 2^depth values.
    static func sharedArrays(depth: Int) -> Data {
        var objects: [[UInt8]] = []
        objects.append([0xD1, 1, 2])  // the root: a dictionary of one pair, key object 1, value object 2
        objects.append([0x51, UInt8(ascii: "k")])
        for level in 0..<depth { objects.append([0xA2, UInt8(3 + level), UInt8(3 + level)]) }
        objects.append([0x51, UInt8(ascii: "x")])
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        func eight(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1] + eight(objects.count) + eight(0) + eight(table)
        return Data(bytes)
    }

    @Test func aSmallSharedPlistIsRead() throws {
        let entries = try PlistValue.dictionary(fromPropertyList: Self.sharedArrays(depth: 3))
        guard case .array(let top)? = entries["k"] else {
            Issue.record("expected an array: \(entries)")
            return
        }
        #expect(top.count == 2)
    }

    @Test func sharedObjectsCannotMultiplyPastTheSize() {
        // 2^40 values in under 200 bytes: refused after a few hundred, not walked.
        #expect(throws: IdentityError.self) { try PlistValue.dictionary(fromPropertyList: Self.sharedArrays(depth: 40)) }
    }

    @Test func longEntitlementArraysAreCheckedAgainstAnIndex() {
        let count = 20_000
        let profile = EntitlementPolicyTests.profile([
            "keychain-access-groups": .array((0..<count).map { .string("ABCDE12345.granted\($0)") } + [.string("TEAMZZZZZZ.*")])
        ])
        let claimed = Entitlements([
            "keychain-access-groups": .array(
                (0..<count).map { .string($0.isMultiple(of: 2) ? "ABCDE12345.granted\($0)" : "ABCDE12345.other\($0)") }
                    + [.string("TEAMZZZZZZ.anything"), .string("")]
            )
        ])
        let refusals = EntitlementPolicy.violations(of: claimed, allowedBy: profile)
        #expect(refusals.count == 1)
        let denied = (refusals.first?.detail ?? "").components(separatedBy: " not allowed by the profile")[0]
        #expect(denied.contains("'ABCDE12345.other1'") && denied.contains("'ABCDE12345.other19999'"))
        #expect(!denied.contains("granted0'") && !denied.contains("TEAMZZZZZZ.anything"))
        #expect(denied.components(separatedBy: "', '").count == count / 2)
    }
}
