import AppIdentity
import Foundation

extension Website {
    static let keys = ["domain", "aasa", "assetlinks", "subdomains", "brokenSites", "accounts"]
    static let subdomainKeys = ["name", "aasa", "assetlinks"]

    init(yaml value: YAMLValue, context: LoadingContext) throws(WorldError) {
        let mapping = try value.mapping(known: Self.keys)
        let domainValue = try mapping.required("domain")
        let domain = try domainValue.string().lowercased()
        guard Self.isHostName(domain) else {
            throw domainValue.error(.malformedValue, "'\(domain)' is not a domain name (letters, digits and '-' in dot-separated labels)")
        }
        var subdomains: [Subdomain] = []
        for element in try mapping.optional("subdomains")?.sequence() ?? [] {
            let subdomain = try element.mapping(known: Self.subdomainKeys)
            let labelValue = try subdomain.required("name")
            let label = try labelValue.string().lowercased()
            guard Self.isHostName(label) else {
                throw labelValue.error(.malformedValue, "'\(label)' is not a subdomain label")
            }
            subdomains.append(
                Subdomain(
                    label: label,
                    aasa: try subdomain.optional("aasa").map { value throws(WorldError) in try SiteAssociationFile(yaml: value, context: context) },
                    assetLinks: try subdomain.optional("assetlinks").map { value throws(WorldError) in try Self.assetLinks(value, context: context) }
                )
            )
        }
        var accounts: [SiteAccount] = []
        var usernames: Set<String> = []
        for element in try mapping.optional("accounts")?.sequence() ?? [] {
            let account = try element.mapping(known: ["username", "password"])
            let nameValue = try account.required("username")
            let username = try nameValue.string()
            guard SiteAccount.isValidUsername(username) else {
                throw nameValue.error(.malformedValue, "'\(username)' is not a username: 1 to 64 lower-case letters, digits, '.', '_', '-' or '@'")
            }
            guard usernames.insert(username).inserted else {
                throw nameValue.error(.malformedValue, "the account '\(username)' is declared twice")
            }
            accounts.append(SiteAccount(username: username, password: try account.required("password").string()))
        }
        self.init(
            domain: domain,
            aasa: try mapping.optional("aasa").map { value throws(WorldError) in try SiteAssociationFile(yaml: value, context: context) },
            subdomains: subdomains,
            brokenSites: try mapping.optional("brokenSites")?.bool() ?? false,
            accounts: accounts,
            assetLinks: try mapping.optional("assetlinks").map { value throws(WorldError) in try Self.assetLinks(value, context: context) }
        )
    }

    /// `assetlinks:`: `content:` (a list of statements, written out as compact JSON) or `file:`
    /// (bytes used as they are, broken or not: the checker judges them, not the world).
    private static func assetLinks(_ value: YAMLValue, context: LoadingContext) throws(WorldError) -> Data {
        let mapping = try value.mapping(known: ["content", "file"])
        switch (mapping.optional("content"), mapping.optional("file")) {
        case (let content?, nil):
            var list: [PlistValue] = []
            for statement in try content.sequence() { list.append(try statement.plistValue()) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let json = try? encoder.encode(PlistValue.array(list)) else {
                throw content.error(.malformedValue, "the statements cannot be written as JSON")
            }
            return json
        case (nil, let file?):
            let url = context.resolve(try file.string())
            // At most one byte past Android's 1 MiB, so a world can show the limit.
            guard let data = try? Data(contentsOf: url), data.count <= (1 << 20) + 1 else {
                throw file.error(.malformedValue, "cannot read \(url.path), or it is larger than 1 MiB and a byte")
            }
            return data
        default:
            throw value.error(.malformedValue, "give the statements as content: (a list) or file: (a path)")
        }
    }

    /// Letters, digits and `-` in labels of 1 to 63 characters, not starting or ending with `-`.
    static func isHostName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        }
    }
}

extension SiteAssociationFile {
    static let keys = ["signed", "content", "file"]

    /// `content:` (a mapping written out as compact JSON) or `file:` (bytes used as they are).
    init(yaml value: YAMLValue, context: LoadingContext) throws(WorldError) {
        let mapping = try value.mapping(known: Self.keys)
        let signed = try mapping.optional("signed")?.bool() ?? false
        switch (mapping.optional("content"), mapping.optional("file")) {
        case (let content?, nil):
            let plist = try content.plistValue()
            guard plist.dictionary != nil else {
                throw content.error(.malformedValue, "an association file's content is a mapping such as {webcredentials: {apps: [...]}}")
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let json = try? encoder.encode(plist) else {
                throw content.error(.malformedValue, "the content cannot be written as JSON")
            }
            self.init(json: json, signed: signed)
        case (nil, let file?):
            let url = context.resolve(try file.string())
            guard let bytes = try? Data(contentsOf: url) else {
                throw file.error(.malformedValue, "cannot read \(url.path)")
            }
            self.init(json: bytes, signed: signed)
        default:
            throw value.error(.malformedValue, "give exactly one of 'content' (a mapping) or 'file' (a path)")
        }
    }
}
