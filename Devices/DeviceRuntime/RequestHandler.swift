import AppIdentity
import DeviceProtocol
import Foundation
import KeychainTypes
import Logging

/// Answers the device's sockets: the control socket (kclab, acting as any installed app) and each
/// launched app's own socket (acting as that app only).
struct RequestHandler: Sendable {
    let device: Device
    let configuration: DeviceConfiguration
    let logger: Logger

    /// Sends an answer before the last one on the connection the request came on.
    typealias Sender = @Sendable (Data) async -> Void

    /// A line from the control socket; `send` carries a program's output as it runs, for a `run`
    /// or `exec` that asks for it.
    func control(_ line: Data, send: @escaping Sender = { _ in }) async -> Data {
        if let problem = StrictJSON.problem(in: line) {
            return Self.encode(.failure(problem.refusal(of: "the request")))
        }
        let request: DeviceRequest
        do {
            request = try JSONDecoder().decode(DeviceRequest.self, from: line)
        } catch {
            return Self.encode(.failure("the request is not a valid JSON object with an 'op': \(Self.describe(error))"))
        }
        switch request.action {
        case .status:
            var response = DeviceResponse()
            response.device = await device.status()
            return Self.encode(response)
        case .lock where await !device.canLock:
            return Self.encode(.failure("\(configuration.id) has no passcode, so it cannot lock (as on iOS); kclab device set-passcode first"))
        case .lock, .unlock, .reboot, .setPasscode, .removePasscode:
            do {
                var response = DeviceResponse()
                response.device = try await device.setLock(request.operation)
                return Self.encode(response)
            } catch {
                return Self.encode(.failure("keychaind did not take the device's new state: \(error)"))
            }
        case .lockKeychain, .unlockKeychain:
            return Self.encode(await loginKeychain(request))
        case .sync(let control):
            return Self.encode(await device.sync(control))
        case .setAnswers(let answers, let defaultAnswer):
            return Self.encode(await device.setAnswers(answers, defaultAnswer: defaultAnswer))
        case .uninstall, .install:
            guard let bundleID = request.app else { return Self.encode(.failure("'app' (a bundle ID) is required")) }
            let result = request.action == .install ? await device.install(bundleID) : await device.uninstall(bundleID)
            switch result {
            case .success(let info):
                var response = DeviceResponse()
                response.app = info
                return Self.encode(response)
            case .failure(let refusal):
                return Self.encode(.failure("\(request.operation.rawValue) of \(bundleID) refused: \(refusal.reasons.joined(separator: "; "))"))
            }
        case .installUpdate:
            guard let bundleID = request.app else { return Self.encode(.failure("'app' (a bundle ID) is required")) }
            switch await device.installUpdate(bundleID) {
            case .success(let info):
                var response = DeviceResponse()
                response.app = info
                return Self.encode(response)
            case .failure(let refusal):
                return Self.encode(.failure("the update of \(bundleID) was refused: \(refusal.reasons.joined(separator: "; "))"))
            }
        case .info, .secItem, .run, .exec, .addSharedWebCredential, .requestSharedWebCredential, .passkeyRegister, .passkeyAssert, .passkeyList:
            guard let bundleID = request.app else { return Self.encode(.failure("'app' (a bundle ID) is required")) }
            return await answer(request, as: bundleID, send: request.streamsOutput ? send : nil)
        }
    }

    /// A line from the socket of a process launched as `bundleID`.
    func app(_ line: Data, bundleID: String) async -> Data {
        if let problem = StrictJSON.problem(in: line) {
            return Self.encode(.call(.param, reason: problem.refusal(of: "the request")))
        }
        let request: DeviceRequest
        do {
            request = try JSONDecoder().decode(DeviceRequest.self, from: line)
        } catch {
            return Self.encode(.call(.param, reason: "the request is not valid: \(Self.describe(error))"))
        }
        switch request.action {
        case .lockKeychain, .unlockKeychain:
            return Self.encode(await loginKeychain(request, as: bundleID))
        case .info, .secItem, .addSharedWebCredential, .requestSharedWebCredential, .passkeyRegister, .passkeyAssert, .passkeyList:
            return await answer(request, as: bundleID)
        case .status, .run, .exec, .installUpdate, .lock, .unlock, .reboot, .setPasscode, .removePasscode, .setAnswers, .uninstall, .install,
            .sync:
            return Self.encode(
                .failure(
                    "an app may make SecItem and shared-web-credential calls, lock or unlock the login keychain and ask for its info, nothing else"
                )
            )
        }
    }

    /// A request that cannot be read, in words: what its operation lacks, or where the JSON is wrong.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty: context.debugDescription
        case DecodingError.keyNotFound(let key, _): "the key '\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: "\(error)"
        }
    }

    /// The answer to `request` made as `bundleID`; a program's output goes to `send` as it runs,
    /// when given.
    private func answer(_ request: DeviceRequest, as bundleID: String, send: Sender? = nil) async -> Data {
        guard let app = await device.app(bundleID) else {
            return Self.encode(.failure(await device.notInstalled(bundleID)))
        }
        switch request.action {
        case .info:
            var response = DeviceResponse()
            response.app = app.info
            return Self.encode(response)
        case .run(let arguments, let input):
            return Self.encode(await launch(app, executable: app.installed.bundle.executableURL, arguments: arguments, input: input, send: send))
        case .exec(let command, let arguments, let input, let workingDirectory, let readable):
            guard app.info.getTaskAllow else {
                return Self.encode(.failure("\(bundleID) is not signed with get-task-allow: only development builds can be run as another program"))
            }
            guard let executable = Self.resolve(command) else {
                let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
                return Self.encode(.failure("\(command) was not found: the device looked in \(path.split(separator: ":").joined(separator: ", "))"))
            }
            let lab = ExecFolder.protected(deviceState: configuration.state, builtWorld: configuration.builtWorld)
            var folder: URL? = nil
            if let directory = workingDirectory {
                switch Self.checkedFolder(directory, role: "the working directory", protecting: lab) {
                case .success(let checked): folder = checked
                case .failure(let refusal): return Self.encode(.failure(refusal.reason))
                }
            }
            guard readable.count <= Self.maximumReadable else { return Self.encode(.failure("at most \(Self.maximumReadable) folders to read")) }
            var extra: [URL] = []
            for directory in readable {
                switch Self.checkedFolder(directory, role: "the folder to read", protecting: lab) {
                case .success(let checked): extra.append(checked)
                case .failure(let refusal): return Self.encode(.failure(refusal.reason))
                }
            }
            return Self.encode(
                await launch(app, executable: executable, arguments: arguments, input: input, folder: folder, readable: extra, send: send)
            )
        case .addSharedWebCredential, .requestSharedWebCredential, .passkeyRegister, .passkeyAssert, .passkeyList:
            return Self.encode(await device.sharedWebCredential(request, as: bundleID))
        case .status, .installUpdate, .lock, .unlock, .reboot, .setPasscode, .removePasscode, .setAnswers, .uninstall, .install, .lockKeychain,
            .unlockKeychain, .sync:
            return Self.encode(.failure("\(request.operation.rawValue) is a control request"))
        case .secItem(let call, let query, let changes):
            return Self.encode(await device.call(call, as: bundleID, query: query, attributesToUpdate: changes))
        }
    }

    /// Launches `executable` as `app`, with a socket of its own and `input` on its standard input,
    /// and waits for it; in `folder` (the caller's, for `exec`), which it may also write, else in
    /// the app's bundle.
    private func launch(
        _ app: Device.App,
        executable: URL,
        arguments: [String],
        input: String?,
        folder: URL? = nil,
        readable: [URL] = [],
        send: Sender? = nil
    ) async -> DeviceResponse {
        let bundleID = app.info.bundleID
        // A user of the app's own when the device runs as root, unless `exec` hands the app the
        // caller's folders or a program of the operator's alone, which only the operator's
        // user can reach.
        let sandboxed = AppSandboxProgram.path != nil
        let ownUser = folder == nil && readable.isEmpty && (executable == app.installed.bundle.executableURL || AppUser.othersMayRun(executable))
        let user = sandboxed && ownUser ? AppUser.forLaunch(device: configuration.id, bundleID: bundleID) : nil
        let launchFolder: LaunchFolder
        do {
            launchFolder = try LaunchFolder(user: user, webTrust: configuration.webTrustFile)
        } catch {
            return .failure("cannot prepare \(bundleID)'s launch: \(error.localizedDescription)")
        }
        defer { launchFolder.remove() }
        let socket = launchFolder.socket
        let handler = self
        let server = Task {
            try await SocketServer.serve(
                path: socket,
                owner: user?.id,
                logger: logger,
                refuse: { RequestHandler.encode(.call(.param, reason: $0)) }
            ) { line, _ in await handler.app(line, bundleID: bundleID) }
        }
        defer { server.cancel() }
        // The socket exists once bound; give the server a moment before the app connects.
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket.path) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        logger.info(
            "launching",
            metadata: [
                "app.bundle": "\(bundleID)", "program": "\(executable.path)", "sandbox": "\(sandboxed ? "landlock" : "off")",
                "user": "\(user.map { String($0.id) } ?? "operator")",
            ]
        )
        let site = configuration.siteRecord()
        do {
            let (status, output) = try await AppLauncher.run(
                executable: executable,
                arguments: arguments,
                input: input,
                launch: launchFolder,
                user: user,
                bundleID: bundleID,
                device: configuration.id,
                directory: folder ?? app.installed.bundle.url,
                extraEnvironment: configuration.networkEnvironment(site: site),
                readable: [launchFolder.webTrust] + readable,
                writable: folder.map { [$0] } ?? [],
                // The lab's websites, and no other TCP port: nginx's, or HTTPS's own where the
                // device has no site record and reaches them by name (the compose lab).
                ports: [site?.port ?? 443],
                onOutput: send.map(Self.partialAnswers)
            )
            var response = DeviceResponse()
            response.exitCode = status
            // Streamed output was sent already.
            response.output = send == nil ? output : nil
            return response
        } catch {
            let reason = error is AppLauncher.InputTooLong ? "\(error)" : error.localizedDescription
            return .failure("cannot launch \(executable.path): \(reason)")
        }
    }

    /// Sends each part of a program's output as an answer marked partial.
    private static func partialAnswers(_ send: @escaping Sender) -> @Sendable (String) async -> Void {
        { part in
            var response = DeviceResponse()
            response.output = part
            response.partial = true
            await send(encode(response))
        }
    }

    /// The most folders an exec may name to read.
    static let maximumReadable = 16

    struct FolderRefusal: Error {
        let reason: String
    }

    /// `path` as a folder an app may be given (as `role`): absolute, a folder, and outside the
    /// lab's state.
    static func checkedFolder(_ path: String, role: String, protecting lab: [URL]) -> Result<URL, FolderRefusal> {
        var isDirectory: ObjCBool = false
        guard path.hasPrefix("/"), FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .failure(FolderRefusal(reason: "\(role) '\(path)' is not a folder on the device"))
        }
        let checked = URL(fileURLWithPath: path)
        if let refusal = ExecFolder.refusal(checked, protecting: lab, role: role) { return .failure(FolderRefusal(reason: refusal)) }
        return .success(checked)
    }

    /// A program named without a path is looked up on PATH, as a shell would; nil when it is not there.
    private static func resolve(_ command: String) -> URL? {
        if command.contains("/") { return URL(fileURLWithPath: command) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appending(path: command)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    static func encode(_ response: DeviceResponse) -> Data {
        (try? JSONEncoder().encode(response)) ?? Data(#"{"error":"the answer could not be encoded"}"#.utf8)
    }
}
