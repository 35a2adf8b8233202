/// The website's HTML pages: plain forms with the `autocomplete` hints browsers use to offer and
/// save passwords. Every value shown is escaped.
enum Pages {
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func page(_ title: String, site: String, _ body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><title>\(escape(title)) · \(escape(site))</title></head>
        <body>
        <header><h1>\(escape(site))</h1></header>
        <main>
        <h2>\(escape(title))</h2>
        \(body)
        </main>
        </body>
        </html>

        """
    }

    static func message(_ error: String?, notice: String? = nil) -> String {
        (error.map { "<p class=\"error\" role=\"alert\">\(escape($0))</p>\n" } ?? "")
            + (notice.map { "<p class=\"notice\">\(escape($0))</p>\n" } ?? "")
    }

    static func login(site: String, csrf: String, username: String = "", error: String? = nil, notice: String? = nil) -> String {
        page(
            "Sign in",
            site: site,
            message(error, notice: notice) + """
                <form method="post" action="/login" id="login">
                <input type="hidden" name="csrf" value="\(escape(csrf))">
                <label>Username <input name="username" autocomplete="username" value="\(escape(username))" required></label>
                <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
                <button type="submit">Sign in</button>
                </form>
                <form method="post" action="/passkeys/authentication" id="passkey-login" data-options="/passkeys/authentication/options">
                <input type="hidden" name="csrf" value="\(escape(csrf))">
                <button type="submit">Sign in with a passkey</button>
                </form>
                <p><a href="/signup">Create an account</a></p>
                """
        )
    }

    static func signup(site: String, csrf: String, username: String = "", error: String? = nil) -> String {
        page(
            "Create account",
            site: site,
            message(error) + """
                <form method="post" action="/signup" id="signup">
                <input type="hidden" name="csrf" value="\(escape(csrf))">
                <label>Username <input name="username" autocomplete="username" value="\(escape(username))" required></label>
                <label>Password <input type="password" name="password" autocomplete="new-password" required></label>
                <button type="submit">Create account</button>
                </form>
                <form method="post" action="/passkeys/registration" id="passkey-signup" data-options="/passkeys/registration/options">
                <input type="hidden" name="csrf" value="\(escape(csrf))">
                <label>Username <input name="username" autocomplete="username webauthn" required></label>
                <button type="submit">Sign up with a passkey</button>
                </form>
                <p><a href="/login">Sign in instead</a></p>
                """
        )
    }

    static func home(site: String, username: String, csrf: String, notice: String? = nil) -> String {
        page(
            "Welcome",
            site: site,
            message(nil, notice: notice) + """
                <p id="signed-in-as">Signed in as <strong>\(escape(username))</strong></p>
                <ul>
                <li><a href="/password">Change password</a></li>
                <li><a href="/delete">Delete account</a></li>
                </ul>
                <form method="post" action="/logout" id="logout">
                <input type="hidden" name="csrf" value="\(escape(csrf))">
                <button type="submit">Sign out</button>
                </form>
                """
        )
    }

    static func changePassword(site: String, username: String, csrf: String, error: String? = nil) -> String {
        page(
            "Change password",
            site: site,
            message(error) + """
                <form method="post" action="/password" id="password">
                <input type="hidden" name="username" autocomplete="username" value="\(escape(username))">
                <input type="hidden" name="csrf" value="\(escape(csrf))">
                <label>Current password <input type="password" name="current_password" autocomplete="current-password" required></label>
                <label>New password <input type="password" name="new_password" autocomplete="new-password" required></label>
                <button type="submit">Change password</button>
                </form>
                """
        )
    }

    static func deleteAccount(site: String, csrf: String, error: String? = nil) -> String {
        page(
            "Delete account",
            site: site,
            message(error) + """
                <form method="post" action="/delete" id="delete">
                <input type="hidden" name="csrf" value="\(escape(csrf))">
                <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
                <button type="submit">Delete my account</button>
                </form>
                """
        )
    }
}
