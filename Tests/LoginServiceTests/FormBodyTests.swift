import LoginService
import Testing

/// Form bodies as the login website reads them: percent-encoding, `+`, and refusals.
struct FormBodyTests {
    @Test func decodesFieldsAsBrowsersEncodeThem() {
        #expect(
            FormBody.fields("username=alice&password=correct+horse%20battery%E2%9C%93") == [
                "username": "alice", "password": "correct horse battery✓",
            ]
        )
        #expect(FormBody.fields("a=&b&&c=%26%3D") == ["a": "", "b": "", "c": "&="])
        #expect(FormBody.fields("") == [:])
    }

    @Test(arguments: ["a=%zz", "a=%", "%E2%9C=x", "a=1&a=2"])
    func refusesBadEncodingAndRepeatedNames(_ body: String) {
        #expect(FormBody.fields(body) == nil)
    }
}
