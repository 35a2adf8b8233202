import AppIdentity
import Foundation
import LabErrors
import Testing

/// The libraries' one error shape: equal on the code, printed as the domain says, the cause kept.
@Suite struct CodedErrorTests {
    enum Loud: ErrorDomain {
        static func describe(code: String, message: String) -> String { "\(code.uppercased()): \(message)" }
    }

    @Test func errorsAreEqualOnTheirCodeAndKeepTheirCause() throws {
        let cause = CocoaError(.fileReadNoPermission)
        let error = IdentityError(.unreadableFile, "cannot read the executable", cause: cause)
        #expect(error == IdentityError(.unreadableFile, "other words"))
        #expect(error != IdentityError(.malformedValue, "cannot read the executable"))
        #expect(error.description == "cannot read the executable")
        #expect((error.cause as? CocoaError)?.code == .fileReadNoPermission)
        #expect(IdentityError(.malformedValue, "x").cause == nil)
        #expect(CodedError<Loud>(.init("io"), "disk full").description == "IO: disk full")
    }
}
