import AppIdentity
import Foundation
public import Hummingbird
public import LabErrors
public import NIOCore

/// An HTTP refusal whose body is an ``APIProblem`` of one service's table; the code decides the
/// status (``APIProblemCode/httpStatus``), never the place that throws.
public struct ProblemResponse<Code: APIProblemCode>: HTTPResponseError {
    public let problem: APIProblem<Code>

    public init(_ code: Code, _ message: String, reasons: [String]? = nil) {
        problem = APIProblem(code, message, reasons: reasons)
    }

    public init(problem: APIProblem<Code>) {
        self.problem = problem
    }

    public var status: HTTPResponse.Status { .init(code: problem.httpStatus) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = (try? JSONEncoder().encode(problem)) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension DeviceIdentity {
    /// The device of a request's connection, or `Code.notADevice`.
    public static func required<Code: APIProblemCode>(_ channel: any Channel, refusing: Code.Type) async throws -> DeviceIdentity {
        guard let device = await of(channel) else {
            throw ProblemResponse(Code.notADevice, "this service answers devices only: present a device certificate")
        }
        return device
    }
}

extension SystemServiceIdentity {
    /// The lab's operator on a request's connection (kclab, with the administrator certificate),
    /// or `Code.notAnAdministrator`: the one check of every admin route.
    public static func administrator<Code: AdminProblemCode>(_ channel: any Channel, refusing: Code.Type) async throws -> SystemServiceIdentity {
        guard let administrator = await of(channel, role: .administrator) else {
            throw ProblemResponse(Code.notAnAdministrator, "only the lab's operator (kclab's administrator certificate) may use the admin routes")
        }
        return administrator
    }
}
