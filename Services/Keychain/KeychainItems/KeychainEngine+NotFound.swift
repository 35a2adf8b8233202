import AppIdentity
import KeychainTypes

extension KeychainEngine {
    /// The errSecItemNotFound (-25300) a call ends with when nothing matches where it searched.
    /// The app sees only the status, as on a device; the reason, for the operator's audit, says
    /// where matching items are when they are elsewhere: in groups the app does not hold (rule
    /// `other-group`, the commonest -25300 that "cannot be", docs/keychain.md), or in a group it
    /// holds that the query did not name.
    func notFound(_ call: SecItemCall, filter: ItemFilter, held: [AccessGroup], searched: String) async -> SecItemError {
        let plain = "\(call.function): no \(filter.itemClass.rawValue) item matches in \(searched)"
        guard filter.itemClass != .identity, filter.uuid == nil, filter.accessGroups != nil else {
            return SecItemError(.itemNotFound, .noMatch, plain)
        }
        var wider = filter
        wider.accessGroups = nil
        wider.attributes["agrp"] = nil
        wider.loadData = false
        wider.limit = Self.otherGroupSample
        let found = Set(((try? await store.lookup(wider)) ?? []).map(\.accessGroup))
        let notHeld = found.subtracting(held.map(\.rawValue)).sorted()
        if !notHeld.isEmpty {
            return SecItemError(.itemNotFound, .otherGroup, "\(plain); a matching item is in \(Self.named(notHeld)), which the app does not hold")
        }
        let unnamed = found.subtracting(filter.accessGroups ?? []).sorted()
        guard !unnamed.isEmpty else { return SecItemError(.itemNotFound, .noMatch, plain) }
        return SecItemError(.itemNotFound, .noMatch, "\(plain); a matching item is in \(Self.named(unnamed)), which the query did not name")
    }

    /// How many items the wider search of `notFound` reads at most: enough to name the groups.
    static var otherGroupSample: Int { 8 }

    private static func named(_ groups: [String]) -> String {
        (groups.count == 1 ? "access group " : "access groups ") + groups.map { "'\($0)'" }.joined(separator: ", ")
    }
}
