public import Foundation
public import Hummingbird
public import LabErrors
import NIOCore

/// What every service's routes do alike: decode a JSON body with a clear 400, answer JSON.
public enum RouteSupport {
    /// The body as `type`; a body that is not one is `Code.badRequest` naming what is wrong.
    public static func decode<T: Decodable, Code: APIProblemCode>(
        _ type: T.Type,
        _ request: Request,
        limit: Int,
        refusing: Code.Type,
        decoder: JSONDecoder = JSONDecoder()
    ) async throws -> T {
        let buffer = try await request.body.collect(upTo: limit)
        do {
            return try decoder.decode(type, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw ProblemResponse(Code.badRequest, "the body is not a valid \(type): \(describe(error))")
        } catch {
            throw ProblemResponse(Code.badRequest, "the body is not JSON")
        }
    }

    /// A 200 answer with `value` as JSON.
    public static func json(_ value: some Encodable, encoder: JSONEncoder) throws -> Response {
        let data = try encoder.encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A decoding error in words: the key path and what was expected.
    public static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "the key '\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        @unknown default: "\(error)"
        }
    }
}
