import DeviceNetwork
import Testing

/// How a device's browser reads a website's forms, including pages a hostile site could serve.
struct HTMLFormTests {
    static let signIn = #"""
        <html><form id="signin" action="/login" method="post">
        <input name="username" autocomplete="username"><input type="password" name="password" autocomplete="current-password">
        <input type="hidden" name="csrf" value="a&amp;b"></form></html>
        """#

    @Test func readsFieldsAsABrowserDoes() throws {
        let form = try #require(HTMLForm.named("signin", in: Self.signIn))
        #expect(form.action == "/login")
        #expect(form.usernameField?.name == "username")
        #expect(form.passwordField("current-password")?.name == "password")
        #expect(form.hidden.map(\.0) == ["csrf"] && form.hidden.map(\.1) == ["a&b"])
    }

    /// Found by `make fuzz`: a form tag with no `>` of its own before `</form>` crashed the device
    /// (a range past the form's end).
    @Test(arguments: ["<form</form>", "<form\u{4}</form><form></form>", "<form id='x'<input name='a'></form>", "<form></form"])
    func hostilePagesGiveFormsNotCrashes(_ page: String) {
        let forms = HTMLForm.all(in: page)
        #expect(forms.count <= 2)
        #expect(forms.allSatisfy { $0.inputs.count <= 1 })
    }
}
