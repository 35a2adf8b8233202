public import LabErrors

extension CloudAPI {
    /// Every code cloudd refuses with, and the HTTP status each answers with: the one table
    /// (documented in openapi.yaml's `Problem`; ProblemCodeTests keeps the two equal).
    public enum ProblemCode: String, Codable, AdminProblemCode {
        /// The body or query cannot be read, or a batch is too large.
        case badRequest
        /// Not a device's certificate: only devices reach zones.
        case notADevice
        /// The device's certificate names no iCloud account, so it has no zones.
        case notSignedIn
        /// No such view.
        case unknownView
        /// The change token is not one this zone gave: fetch everything again.
        case tokenExpired
        /// A record's payload is 1 MiB or more.
        case recordTooLarge
        /// Not the operator's certificate, on an admin route.
        case notAnAdministrator
        /// The store holding the account's zones (its shard) cannot be reached now: try again.
        case storeUnavailable

        public var httpStatus: Int {
            switch self {
            case .badRequest: 400
            case .notADevice, .notSignedIn, .notAnAdministrator: 403
            case .unknownView: 404
            case .tokenExpired: 410
            case .recordTooLarge: 413
            case .storeUnavailable: 503
            }
        }
    }

    public typealias Problem = APIProblem<ProblemCode>
}
