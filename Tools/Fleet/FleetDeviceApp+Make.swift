import KeychainCallChannel
import NIOSSL

extension FleetDeviceApp {
    /// Device `index`'s app, signed in to `account` with the identity in `tls`: its SecItem calls
    /// on a call-channel connection of its own, its install with associationd and its shared web
    /// credential calls when those services run (and the plan and the app call them); nil when
    /// keychaind does not run.
    static func make(
        index: Int,
        account: String,
        tls: TLSConfiguration,
        app: FleetApp,
        services: FleetServices,
        plan: FleetPlan,
        stats: FleetStats
    ) throws -> FleetDeviceApp? {
        guard let keychaind = services.keychaind else { return nil }
        let webCredentials = services.webcredentiald.flatMap { url in
            plan.webCredentialsPerDeviceMinute > 0 && !app.webCredentialHosts.isEmpty
                ? FleetWebCredentials(
                    webcredentiald: url,
                    tls: tls,
                    caller: app.caller(passwordAutoFill: true),
                    hosts: app.webCredentialHosts,
                    index: index,
                    plan: plan,
                    stats: stats
                ) : nil
        }
        return FleetDeviceApp(
            index: index,
            keychaind: keychaind.url,
            tls: tls,
            calls: try KeychainCallClient(host: keychaind.host, port: keychaind.port, tls: tls, connections: 1),
            report: FleetDeviceApp.report(account: account),
            app: app,
            associations: services.associationd.map { FleetAssociations(associationd: $0, tls: tls, app: app, plan: plan, stats: stats) },
            webCredentials: webCredentials,
            plan: plan,
            stats: stats
        )
    }
}
