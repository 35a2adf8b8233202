import AppIdentity
import Foundation
import Hummingbird
import KeychainAPI
import KeychainItems
import KeychainTypes
import Logging
import NIOCore
import ServiceSupport

extension KeychainRoutes {
    /// What the lab's operator (kclab, with the administrator certificate) may read: every
    /// keychain's item metadata, and the data only with `reveal=true`. No device, app or system
    /// service may use it.
    ///
    /// `GET /v1/admin/items?keychain=device:UDID&keychain=login:UDID[&group=G][&reveal=true]`
    func addAdminRoutes(to router: Router<DeviceRequestContext>) {
        router.get("/v1/admin/items") { request, context in
            let administrator = try await Self.administrator(context)
            let keychains: [String] = request.uri.queryParameters.getAll("keychain").map { String($0) }
            guard !keychains.isEmpty, keychains.count <= 64,
                keychains.allSatisfy({ KeychainName(rawValue: $0) != nil })
            else {
                throw Self.problem(.badRequest, "name 1 to 64 keychains: keychain=device:UDID or login:UDID")
            }
            let group: String? = request.uri.queryParameters.get("group").map { String($0) }
            let reveal = request.uri.queryParameters.get("reveal") == "true"
            var items: [KeychainAPI.AdminItem] = []
            for itemClass in ItemClass.allCases {
                let filter = ItemFilter(
                    keychains: keychains,
                    itemClass: itemClass,
                    accessGroups: group.map { [$0] },
                    loadData: reveal
                )
                items += try await calls.engine.store.lookup(filter).map { Self.adminItem($0, reveal: reveal) }
            }
            context.logger.notice(
                "keychains listed by the operator",
                metadata: ["operator": "\(administrator.name)", "keychains": "\(keychains)", "items": "\(items.count)", "revealed": "\(reveal)"]
            )
            let counts = Dictionary(grouping: items, by: \.group).mapValues(\.count)
            let encoder = KeychainAPI.AdminItems.encoder()
            let body = try encoder.encode(KeychainAPI.AdminItems(items: items, counts: counts))
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    static func adminItem(_ item: KeychainItem, reveal: Bool) -> KeychainAPI.AdminItem {
        func text(_ key: String) -> String? {
            switch item.attributes[key] {
            case .string(let value)?: value
            case .data(let value)?: String(data: value, encoding: .utf8) ?? value.base64EncodedString()
            case .integer(let value)?: "\(value)"
            default: nil
            }
        }
        func date(_ key: String) -> Date? {
            if case .date(let value)? = item.attributes[key] { return value }
            return nil
        }
        // A login-keychain item has no access group or protection class (its internal ones stay inside).
        let inLoginKeychain = FileKeychain.holds(item)
        return KeychainAPI.AdminItem(
            keychain: item.keychain,
            itemClass: item.itemClass.rawValue,
            group: inLoginKeychain ? "" : text("agrp") ?? "",
            account: text("acct"),
            service: text("svce"),
            server: text("srvr"),
            label: text("labl"),
            synchronizable: item.isSynchronizable,
            protection: inLoginKeychain ? nil : text("pdmn"),
            created: date("cdat"),
            modified: date("mdat"),
            data: reveal ? item.data : nil
        )
    }

    /// The lab's operator at the other end of the connection, or a 403 for anyone else: the
    /// administrator role marker on a certificate the world's device CA issued.
    static func administrator(_ context: DeviceRequestContext) async throws -> SystemServiceIdentity {
        try await SystemServiceIdentity.administrator(context.channel, refusing: KeychainAPI.ProblemCode.self)
    }
}
