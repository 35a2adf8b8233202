import AppIdentity
public import Foundation
import KeychainTypes
import LabErrors

/// The SecItem semantics of a real device: the four calls, their order of checks, their statuses and
/// their result shapes (spec keychain.md §1–§5), over any ``ItemStore``.
///
/// Each call is decided against a ``ClientContext`` built from the caller's verified signature;
/// nothing in the dictionaries can widen it.
public struct KeychainEngine: Sendable {
    /// Where items live.
    public let store: any ItemStore
    /// The clock for creation and modification dates (injected so tests control it).
    public let now: @Sendable () -> Date

    /// An engine over `store`.
    public init(store: any ItemStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.now = now
    }

    /// Runs one call of `client`, turning every failure into the status a device returns. A
    /// client entitled `com.apple.private.keychain.deny` gets errSecNotAvailable (-25291) for
    /// every call, before anything is read (spec keychain.md §1.7).
    func perform(for client: ClientContext, _ body: () async throws -> SecItemResult) async -> SecItemResult {
        if client.isDenied {
            return .failure(SecItemError(.notAvailable, .keychainDenied, "\(client.caller) is entitled com.apple.private.keychain.deny"))
        }
        do {
            try client.checkWildcard()
            return try await body()
        } catch let error as SecItemError {
            return .failure(error)
        } catch let error as StoreError {
            return .failure(SecItemError(error.status, .database, "the keychain database: \(error.message)"))
        } catch {
            return .failure(SecItemError(.notAvailable, .database, "the keychain database: \(error)"))
        }
    }

    /// A macOS app's CopyMatching, Update or Delete where macOS sends it (§5): the data-protection
    /// keychain, the login keychain (`dictionary` stripped), or both, merged; `nil` for a caller
    /// with no login keychain, whose call runs as it is. Neither keychain is errSecParam.
    func routed(
        _ dictionary: [String: SecValue],
        client: ClientContext,
        function: SecItemCall,
        _ call: ([String: SecValue], ClientContext) async -> SecItemResult
    ) async -> SecItemResult? {
        guard let file = client.onFileKeychain else { return nil }
        // kSecAttrAccess decides the route; macOS's SecItem layer then drops it from a search,
        // whichever keychain the search goes to.
        let search = dictionary.filter { $0.key != LegacyAccess.key }
        let stripped = FileKeychain.stripped(search)
        switch KeychainRoute.of(dictionary) {
        case .dataProtection: return await call(search, client.onDataProtectionKeychain)
        case .file: return await call(stripped, file)
        case .both:
            let dataProtection = await call(search, client.onDataProtectionKeychain)
            return KeychainRoute.merged(dataProtection: dataProtection, file: await call(stripped, file))
        case .neither: return await perform(for: client) { throw KeychainRoute.neitherError(function) }
        }
    }

    /// The explicit group of a read, or `nil`; a group the caller does not belong to is -34018 on
    /// current systems and "nothing matches" (-25300) before iOS 13 (spec §2.4 step 4, seed 000).
    func checkExplicitGroup(_ group: String?, allowed: (String) -> Bool, client: ClientContext, call: SecItemCall) throws(SecItemError) {
        guard let group, !allowed(group) else { return }
        if client.device.refusesForeignGroups {
            throw SecItemError(
                .missingEntitlement,
                .accessGroup,
                "\(call): \(client.caller) does not belong to access group '\(group)'\(client.prefixHint(group))"
            )
        }
        throw SecItemError(
            .itemNotFound,
            .accessGroup,
            "\(call): \(client.caller) does not belong to access group '\(group)'\(client.prefixHint(group)); before iOS 13 such a query finds nothing"
        )
    }

    /// The filter for a parsed query: its class, attributes and sync condition, in `groups`.
    func filter(for query: ParsedQuery, groups: [AccessGroup]?, client: ClientContext, loadData: Bool) throws(SecItemError) -> ItemFilter {
        var attributes = query.attributes
        let tomb = attributes.removeValue(forKey: "tomb")
        var synchronizable: Bool? = nil
        var keychains = client.keychains(for: query.synchronizable)
        if case .only(let flag) = query.synchronizable { synchronizable = flag }
        if case .unspecified = query.synchronizable { synchronizable = false }
        var uuid: UUID? = nil
        if let reference = query.persistentRef {
            if !attributes.keys.allSatisfy({ $0 == "agrp" }) {
                throw SecItemError(.param, .queryForm, "a query by persistent reference may not also name attributes")
            }
            guard let parsed = PersistentRef(reference), parsed.itemClass == query.itemClass else {
                throw SecItemError(.param, .queryForm, "v_PersistentRef is not a persistent reference to a \(query.itemClass.rawValue) item")
            }
            // A persistent reference names one item; it gets no implicit sync condition (§2.4).
            uuid = parsed.uuid
            if case .unspecified = query.synchronizable {
                synchronizable = nil
                keychains = client.keychains(for: .any)
            }
        }
        return ItemFilter(
            keychains: keychains,
            itemClass: query.itemClass,
            accessGroups: query.accessGroup.map { [$0] } ?? (client.holdsWildcard ? nil : groups?.map(\.rawValue)),
            synchronizable: synchronizable,
            attributes: attributes,
            uuid: uuid,
            includeTombstones: tomb != nil,
            loadData: loadData
        )
    }

    /// Stops a call that needs a protection class the locked device cannot open (spec §3).
    func checkAvailable(_ items: [KeychainItem], client: ClientContext, call: SecItemCall) throws(SecItemError) {
        if let locked = items.first(where: { !client.device.canDecrypt($0.accessibility) }) {
            throw SecItemError(
                .interactionNotAllowed,
                .deviceLocked,
                "\(call): an item protected \(locked.accessibility.rawValue) cannot be used while the device is locked"
            )
        }
    }
}
