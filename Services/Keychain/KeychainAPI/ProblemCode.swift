public import LabErrors

extension KeychainAPI {
    /// Every code keychaind refuses with, and the HTTP status each answers with: the one table
    /// (documented in openapi.yaml's `Problem`; ProblemCodeTests keeps the two equal).
    public enum ProblemCode: String, Codable, AdminProblemCode {
        /// The body or query cannot be read.
        case badRequest
        /// No such SecItem call in the path.
        case unknownCall
        /// Not a device's certificate, where a device must call.
        case notADevice
        /// Not a system service's certificate (webcredentiald), where one must call.
        case notASystemService
        /// Not the operator's certificate, on an admin route.
        case notAnAdministrator
        /// A device reported an iCloud account its certificate does not allow.
        case accountMismatch
        /// The device has not reported its state yet.
        case unknownDevice
        /// The device has not registered the app (or keychaind forgot it in a restart).
        case unknownApp
        /// The app's signature is not valid.
        case refusedApp
        /// Verifying the app took more than its CPU budget: try again.
        case verificationBudget
        /// A login-keychain call for a device that is not a Mac.
        case notAMac
        /// The Mac's user has not logged in: no login keychain yet.
        case noLoginKeychain
        /// The password is not the login keychain's.
        case authFailed
        /// Too many calls in flight on one call-channel connection.
        case tooManyCalls

        /// The HTTP status keychaind answers it with.
        public var httpStatus: Int {
            switch self {
            case .badRequest: 400
            case .notADevice, .notASystemService, .notAnAdministrator, .accountMismatch, .refusedApp, .authFailed: 403
            case .unknownCall: 404
            case .unknownDevice, .notAMac, .noLoginKeychain: 409
            case .unknownApp: 412
            case .tooManyCalls: 429
            case .verificationBudget: 503
            }
        }
    }
}
