public import AppIdentity
import Foundation
public import WorldFile

extension WorldBuilder {
    /// What a device's installer refuses in `app`'s signed entitlements under the profile
    /// `kclab world build` makes for it: ``EntitlementPolicy``'s refusals, the installer's own
    /// rule, against ``ProfileFactory``'s grants, without building anything. Empty for an app
    /// without a profile (nothing validates its entitlements) or of a team the world does not
    /// declare.
    ///
    /// It covers what the world's entitlements decide (an app claiming another team's group, an
    /// app group its team did not register, a capability a wildcard App ID cannot carry), not the
    /// damage a world declares on purpose (`tampering`, `signedBy`, an expired profile) or a
    /// device a development profile does not list: those are decided by the device at install.
    public static func entitlementRefusals(of app: App, in world: World) -> [Refusal] {
        guard app.profile.exists, let team = world.team(app.team) else { return [] }
        // The certificate and dates do not bear on the entitlements the profile allows.
        let profile = ProfileFactory.profile(for: app, team: team, world: world, certificate: Data(), now: Date(timeIntervalSince1970: 0))
        return EntitlementPolicy.violations(of: app.signedEntitlements, allowedBy: profile)
    }
}
