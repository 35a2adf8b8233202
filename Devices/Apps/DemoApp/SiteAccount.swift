import DeviceNetwork
import Foundation
import Security

/// The site's app and its account, as seed 002's workflows want it: credentials kept in the app's
/// own keychain first, shared web credentials second, the user last; the website's JSON API for
/// everything the account does; changes saved to both the keychain and the shared credentials.
struct SiteAccount {
    let site: String
    let app: String
    let web: WebClient
    let api: URL

    init(site: String, app: String) throws {
        self.site = site
        self.app = app
        web = try WebClient()
        api = try WebClient.url("https://\(site)/api/v1/")
    }

    // MARK: The app's own keychain (its default group; DemoAdminApp shares DemoApp's)

    private var ownQuery: [String: Any] {
        [kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: site]
    }

    func ownCredentials() -> (user: String, password: String)? {
        var query = ownQuery
        query[kSecReturnAttributes as String] = kCFBooleanTrue!
        query[kSecReturnData as String] = kCFBooleanTrue!
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, let item = result as? [String: Any],
            let user = item[kSecAttrAccount as String] as? String, let data = item[kSecValueData as String] as? Data
        else { return nil }
        return (user, String(decoding: data, as: UTF8.self))
    }

    func saveOwn(user: String, password: String) -> OSStatus {
        _ = SecItemDelete(ownQuery as CFDictionary)
        var item = ownQuery
        item[kSecAttrAccount as String] = user
        item[kSecValueData as String] = Data(password.utf8)
        return SecItemAdd(item as CFDictionary, nil)
    }

    func deleteOwn() -> OSStatus {
        SecItemDelete(ownQuery as CFDictionary)
    }

    /// The session token, kept in the keychain too (a generic password).
    private var tokenQuery: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "session.\(site)"]
    }

    func token() -> String? {
        var query = tokenQuery
        query[kSecReturnData as String] = kCFBooleanTrue!
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, let data = result as? Data else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    func saveToken(_ token: String, user: String) {
        _ = SecItemDelete(tokenQuery as CFDictionary)
        var item = tokenQuery
        item[kSecAttrAccount as String] = user
        item[kSecValueData as String] = Data(token.utf8)
        _ = SecItemAdd(item as CFDictionary, nil)
    }

    func forgetToken() {
        _ = SecItemDelete(tokenQuery as CFDictionary)
    }

    // MARK: The website's API

    struct APIAnswer {
        let status: Int
        let fields: [String: String]
    }

    func call(_ method: String, _ path: String, _ body: [String: String]?, bearer: String? = nil) async throws -> APIAnswer {
        let answer = try await request(method, path, body, bearer: bearer)
        return APIAnswer(status: answer.status, fields: answer.object.compactMapValues { $0 as? String })
    }

    /// POSTs any JSON object to the API; the answer as an object.
    func post(_ path: String, _ body: [String: Any]) async throws -> (status: Int, object: [String: Any]) {
        try await request("POST", path, body)
    }

    private func request(
        _ method: String,
        _ path: String,
        _ body: [String: Any]?,
        bearer: String? = nil
    ) async throws -> (status: Int, object: [String: Any]) {
        let page = try await web.json(method, URL(string: path, relativeTo: api)!.absoluteURL, body, bearer: bearer)
        return (page.status, (try? JSONSerialization.jsonObject(with: Data(page.body.utf8))) as? [String: Any] ?? [:])
    }

    func logIn(user: String, password: String) async throws -> String? {
        let answer = try await call("POST", "sessions", ["username": user, "password": password])
        guard answer.status == 200, let token = answer.fields["token"] else {
            print("\(app): the website refused \(user): \(answer.fields["message"] ?? "HTTP \(answer.status)")")
            return nil
        }
        return token
    }
}
