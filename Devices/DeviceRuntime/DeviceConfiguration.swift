import DeviceProtocol
public import Foundation
public import ServiceSupport

/// How a device process runs.
public struct DeviceConfiguration: Sendable {
    /// The world file declaring the device.
    public var worldFile: URL
    /// The built world (trust roots, the device's certificate, the app bundles).
    public var builtWorld: URL
    /// The device's ID in the world.
    public var id: String
    /// The device's own folder: installed apps, sockets, logs of prompts.
    public var state: URL
    /// Where keychaind listens (an address, or the endpoint file it writes once listening).
    public var keychaind: ServiceAddress
    /// Where associationd listens; without it the device verifies no associated domains.
    public var associationd: ServiceAddress?
    /// Where webcredentiald listens; without it shared web credentials answer errSecNotAvailable.
    public var webcredentiald: ServiceAddress?
    /// Where cloudd's replicas listen, tried in this order (the device moves to the next when one
    /// fails); none: the device's synchronizable items stay on it.
    public var cloudd: [ServiceAddress]
    /// Where the lab's websites answer (site.json): the device's DNS for its apps.
    public var siteFile: URL?

    public init(
        worldFile: URL,
        builtWorld: URL,
        id: String,
        state: URL,
        keychaind: ServiceAddress,
        associationd: ServiceAddress? = nil,
        webcredentiald: ServiceAddress? = nil,
        cloudd: [ServiceAddress] = [],
        siteFile: URL? = nil
    ) {
        self.worldFile = worldFile
        self.builtWorld = builtWorld
        self.id = id
        self.state = state
        self.keychaind = keychaind
        self.associationd = associationd
        self.webcredentiald = webcredentiald
        self.cloudd = cloudd
        self.siteFile = siteFile
    }

    /// The roots the device trusts for the lab's websites (PEM).
    var webTrustFile: URL { builtWorld.appending(path: "trust/web-root-ca.pem") }

    /// Where the lab's websites answer, when it runs any (read at each launch: nginx may start later).
    func siteRecord() -> SiteRecord? {
        guard let siteFile, let data = try? Data(contentsOf: siteFile) else { return nil }
        return try? JSONDecoder().decode(SiteRecord.self, from: data)
    }

    /// What launched apps get besides their socket: the device's DNS for the lab's websites (from
    /// `site`) and the roots it trusts for them.
    func networkEnvironment(site: SiteRecord?) -> [String: String] {
        var environment = [DeviceEnvironment.webTrust: webTrustFile.path]
        if let site { environment[DeviceEnvironment.resolve] = site.resolveList }
        return environment
    }

    /// The control socket kclab talks to.
    public var controlSocket: URL { state.appending(path: "control.sock") }
    /// Where installed apps are copied.
    public var appsFolder: URL { state.appending(path: "apps") }
    /// Where launched apps get their sockets.
    public var runFolder: URL { state.appending(path: "run") }
    /// What the device's iCloud Keychain engines hold, sealed with the account's key, kept
    /// across restarts.
    public var iCloudKeychainState: URL { state.appending(path: ICloudSignIn.keychainStateFileName) }
    /// Every prompt the device's user was shown, one JSON object per line.
    public var promptLog: URL { state.appending(path: PromptLog.fileName) }
    /// Written once the device is ready: its status as JSON.
    public var readyFile: URL { state.appending(path: "ready.json") }

    /// The control socket of device `id` under a `kclab up` state folder.
    public static func controlSocket(state: URL, device: String) -> URL {
        state.appending(path: "devices/\(device)/control.sock")
    }
}
