public import KeychainAPI
public import KeychainTypes
public import LabErrors

/// One SecItem call sent on the call channel: what `POST /v1/items/{call}` carries, with an id
/// that its answer repeats, so that many calls share one connection.
public struct CallMessage: Sendable, Hashable {
    public var id: UInt32
    public var call: SecItemCall
    public var request: KeychainAPI.CallRequest

    public init(id: UInt32, call: SecItemCall, request: KeychainAPI.CallRequest) {
        self.id = id
        self.call = call
        self.request = request
    }

    static let appCall: UInt8 = 1
    static let approvalTag: UInt8 = 2

    /// The message's bytes (without the frame's length): the id, the kind, the call, the app's
    /// reference, the query and, for update only, the attributes, in ``SecValueBinary``'s form.
    public func encoded() -> [UInt8] {
        var writer = SecValueBinary.Writer()
        writer.write(id)
        writer.write(Self.appCall)
        writer.write(call.wireTag)
        writer.write(request.app)
        writer.write(.dictionary(request.query))
        if let attributes = request.attributesToUpdate {
            writer.write(UInt8(1))
            writer.write(.dictionary(attributes))
        } else {
            writer.write(UInt8(0))
        }
        // Optional tail: the user's answer to a login-keychain prompt.
        if let approval = request.userApproval {
            writer.write(Self.approvalTag)
            writer.write(approval.rawValue)
        }
        return writer.bytes
    }

    /// Reads a message; the id is returned apart so that even a malformed call can be answered.
    public static func decode(_ bytes: [UInt8]) -> (id: UInt32?, message: Result<CallMessage, WireError>) {
        var reader = SecValueBinary.Reader(bytes)
        guard let id = try? reader.readUInt32() else { return (nil, .failure(WireError("the message has no id"))) }
        do {
            guard try reader.readByte() == appCall else { throw WireError("unknown message kind") }
            let byte = try reader.readByte()
            guard let call = SecItemCall(wireTag: byte) else { throw WireError("unknown call \(byte)") }
            let app = try reader.readString()
            let query = try reader.readDictionary()
            let attributes = try reader.readByte() == 1 ? try reader.readDictionary() : nil
            var approval: UserApproval?
            if !reader.isAtEnd {
                guard try reader.readByte() == approvalTag else { throw WireError("bytes follow the call") }
                let text = try reader.readString()
                guard let answer = UserApproval(rawValue: text) else { throw WireError("unknown user approval '\(text)'") }
                approval = answer
            }
            guard reader.isAtEnd else { throw WireError("bytes follow the call") }
            let request = KeychainAPI.CallRequest(app: app, query: query, attributesToUpdate: attributes, userApproval: approval)
            return (id, .success(CallMessage(id: id, call: call, request: request)))
        } catch let error as WireError {
            return (id, .failure(error))
        } catch {
            return (id, .failure(WireError("\(error)")))
        }
    }
}

/// keychaind's answer to one ``CallMessage``: the call's result, or why keychaind would not make
/// it (the HTTP API's ``KeychainAPI/Problem``: `unknownDevice`, `unknownApp`, `badRequest`…).
public struct AnswerMessage: Sendable, Hashable {
    public enum Body: Sendable, Hashable {
        case answer(KeychainAPI.CallResponse)
        case problem(KeychainAPI.Problem)
    }

    public var id: UInt32
    public var body: Body

    public init(id: UInt32, body: Body) {
        self.id = id
        self.body = body
    }

    public func encoded() -> [UInt8] {
        var writer = SecValueBinary.Writer()
        writer.write(id)
        switch body {
        case .answer(let answer):
            writer.write(UInt8(0))
            writer.write(UInt32(bitPattern: answer.status))
            writer.write(answer.name)
            if let result = answer.result {
                writer.write(UInt8(1))
                writer.write(result)
            } else {
                writer.write(UInt8(0))
            }
            writer.write(answer.reason ?? "")
            // Optional tail: what the device's user must do first (1: allow the use of an item,
            // 3: the same with the keychain password, 2: unlock a keychain), with the item's or
            // keychain's name.
            switch answer.confirmation {
            case .allowUse(let item, let needsPassword)?:
                writer.write(UInt8(needsPassword ? 3 : 1))
                writer.write(item)
            case .unlock(let keychain)?:
                writer.write(UInt8(2))
                writer.write(keychain)
            case nil: break
            }
        case .problem(let problem):
            writer.write(UInt8(1))
            writer.write(problem.error)
            writer.write(problem.message)
            let reasons = problem.reasons ?? []
            writer.write(UInt32(reasons.count))
            for reason in reasons { writer.write(reason) }
        }
        return writer.bytes
    }

    public static func decode(_ bytes: [UInt8]) throws -> AnswerMessage {
        var reader = SecValueBinary.Reader(bytes)
        let id = try reader.readUInt32()
        let body: Body
        switch try reader.readByte() {
        case 0:
            let status = Int32(bitPattern: try reader.readUInt32())
            let name = try reader.readString()
            let result = try reader.readByte() == 1 ? try reader.readValue() : nil
            let reason = try reader.readString()
            var answer = KeychainAPI.CallResponse(status: .success, result: result, reason: reason.isEmpty ? nil : reason)
            answer.status = status
            answer.name = name
            if !reader.isAtEnd {
                switch try reader.readByte() {
                case 1: answer.confirmation = .allowUse(item: try reader.readString(), needsPassword: false)
                case 3: answer.confirmation = .allowUse(item: try reader.readString(), needsPassword: true)
                case 2: answer.confirmation = .unlock(keychain: try reader.readString())
                default: throw WireError("unknown answer field")
                }
            }
            body = .answer(answer)
        case 1:
            let code = try reader.readString()
            let message = try reader.readString()
            let count = try reader.readUInt32()
            var reasons: [String] = []
            for _ in 0..<min(count, 1024) { reasons.append(try reader.readString()) }
            body = .problem(KeychainAPI.Problem(error: code, message: message, reasons: reasons.isEmpty ? nil : reasons))
        default:
            throw WireError("unknown answer kind")
        }
        return AnswerMessage(id: id, body: body)
    }
}

/// A message that is not in the call channel's format.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
