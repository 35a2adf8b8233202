public import LabErrors

extension AssociationAPI {
    /// Every code associationd refuses with, and the HTTP status each answers with: the one table
    /// (documented in openapi.yaml's `Problem`; ProblemCodeTests keeps the two equal).
    public enum ProblemCode: String, Codable, AdminProblemCode {
        /// The body or query cannot be read: a missing parameter, a malformed app ID, an unknown service.
        case badRequest
        /// Not a device's certificate, where a device must call.
        case notADevice
        /// Neither a device's nor a system service's certificate, where either may call.
        case notADeviceOrSystemService
        /// A system service asked about a device without naming it (`device=UDID`).
        case deviceRequired
        /// Not the operator's certificate, on an admin route.
        case notAnAdministrator
        /// The app's signature is not valid (the reasons say why).
        case refusedApp

        /// The HTTP status associationd answers it with.
        public var httpStatus: Int {
            switch self {
            case .badRequest, .deviceRequired: 400
            case .notADevice, .notADeviceOrSystemService, .notAnAdministrator, .refusedApp: 403
            }
        }
    }

    /// Any refusal's body: a code of ``ProblemCode``'s table.
    public typealias Problem = APIProblem<ProblemCode>
}
