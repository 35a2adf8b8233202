public import LabErrors

extension WebCredentialAPI {
    /// Every code webcredentiald refuses with, and the HTTP status each answers with: the one
    /// table (documented in openapi.yaml's `Problem`; ProblemCodeTests keeps the two equal). A
    /// call the broker decides is never a refusal: it is an ``Outcome`` with its OSStatus.
    public enum ProblemCode: String, Codable, APIProblemCode {
        /// The body cannot be read.
        case badRequest
        /// Not a device's certificate: only devices call.
        case notADevice
        /// The calling app's signature is not valid (the reasons say why).
        case refusedApp
        /// Verifying the app took more than its CPU budget, or too many wait: try again.
        case verificationBudget

        /// The HTTP status webcredentiald answers it with.
        public var httpStatus: Int {
            switch self {
            case .badRequest: 400
            case .notADevice, .refusedApp: 403
            case .verificationBudget: 503
            }
        }
    }

    /// Any refusal's body: a code of ``ProblemCode``'s table.
    public typealias Problem = APIProblem<ProblemCode>
}
