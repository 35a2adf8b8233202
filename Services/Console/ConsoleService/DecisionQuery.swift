import Foundation
import HTTPTypes
public import Hummingbird
import ServiceSupport

/// The filters of `/decisions` and `/events`: `device=` (a device's name in the world, or its
/// UDID), `app=` and `status=` (``DecisionFilter``).
public enum DecisionQuery {
    /// `Last-Event-ID`, which a browser's EventSource sends when it reconnects.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    /// The filter of `parameters`, the filters as given (for the form), and the query that gives
    /// them again (for the page's feed), each value percent-encoded.
    public static func read(_ parameters: Parameters, rows: DecisionRows) -> (DecisionFilter, (device: String, app: String, status: String), String) {
        let value = { (key: String) in parameters.get(key).map { String($0) }?.trimmingCharacters(in: .whitespaces) ?? "" }
        let given = (device: value("device"), app: value("app"), status: value("status"))
        let filter = DecisionFilter(device: given.device.isEmpty ? nil : rows.udid(given.device), app: given.app, status: given.status)
        let query = [("device", given.device), ("app", given.app), ("status", given.status)]
            .filter { !$0.1.isEmpty }
            .map { "\($0.0)=\(QueryText.escaped($0.1))" }
            .joined(separator: "&")
        return (filter, given, query)
    }
}
