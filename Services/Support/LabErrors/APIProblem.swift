import Foundation

/// The refusal codes of one service's HTTP API (keychaind's, associationd's, webcredentiald's):
/// each code decides its HTTP status in one table, the API's `httpStatus`. The refusals every
/// service shares (a body it cannot read, a caller that is not a device) have the same names in
/// every table, so that the shared route helpers answer them for any service.
public protocol APIProblemCode: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// The HTTP status the service answers this code with.
    var httpStatus: Int { get }
    /// The body or query cannot be read.
    static var badRequest: Self { get }
    /// Not a device's certificate, where a device must call.
    static var notADevice: Self { get }
}

/// The codes of an API with admin routes, which only the lab's operator may use.
public protocol AdminProblemCode: APIProblemCode {
    /// Not the operator's certificate, on an admin route.
    static var notAnAdministrator: Self { get }
}

/// Any refusal of a service's HTTP API, as its body says it: a code of the API's table, kept as
/// text on the wire so that a client reads a code newer than itself, a message for people, and
/// the reasons behind it when there are several (a signature's refusals).
public struct APIProblem<Code: APIProblemCode>: Codable, Hashable, Sendable, Error, CustomStringConvertible {
    public var error: String
    public var message: String
    public var reasons: [String]?

    /// A problem as read from the wire.
    public init(error: String, message: String, reasons: [String]? = nil) {
        self.error = error
        self.message = message
        self.reasons = reasons
    }

    /// A problem the service answers.
    public init(_ code: Code, _ message: String, reasons: [String]? = nil) {
        self.init(error: code.rawValue, message: message, reasons: reasons)
    }

    /// The problem a refusal's body holds (a non-2xx answer's JSON), nil when it holds none: how a
    /// client reads why a service said no.
    public init?(body: String) {
        guard let problem = try? JSONDecoder().decode(Self.self, from: Data(body.utf8)) else { return nil }
        self = problem
    }

    /// The code, when it is one this build knows.
    public var code: Code? { Code(rawValue: error) }

    /// The status the code is answered with; 500 for a code this build does not know.
    public var httpStatus: Int { code?.httpStatus ?? 500 }

    public var description: String { "\(error): \(message)" }
}
