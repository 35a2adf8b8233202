import Foundation
import KeychainTypes

extension FleetPlan {
    /// The SecItem calls a device's app makes, each kind a Poisson process of its own: calls a
    /// minute, on average. Every call names one of a few items of the device's (`item-0` to
    /// `item-7`), so some find nothing and some add a duplicate, as an app's calls do.
    public struct Calls: Sendable, Codable, Equatable {
        public var add: Double = 1
        public var copy: Double = 6
        public var update: Double = 1
        public var delete: Double = 1

        public init(add: Double = 1, copy: Double = 6, update: Double = 1, delete: Double = 1) {
            (self.add, self.copy, self.update, self.delete) = (add, copy, update, delete)
        }

        public init(from decoder: any Decoder) throws {
            let given = try decoder.container(keyedBy: AnyKey.self)
            if let unknown = given.allKeys.first(where: { CodingKeys(stringValue: $0.stringValue) == nil }) {
                throw DecodingError.dataCorruptedError(
                    forKey: unknown,
                    in: given,
                    debugDescription: "'\(unknown.stringValue.prefix(40))' is not a kind of call: add, copy, update, delete"
                )
            }
            let values = try decoder.container(keyedBy: CodingKeys.self)
            self.init(add: 0, copy: 0, update: 0, delete: 0)
            add = try values.decodeIfPresent(Double.self, forKey: .add) ?? 0
            copy = try values.decodeIfPresent(Double.self, forKey: .copy) ?? 0
            update = try values.decodeIfPresent(Double.self, forKey: .update) ?? 0
            delete = try values.decodeIfPresent(Double.self, forKey: .delete) ?? 0
        }

        /// These kinds in the same proportions, `total` calls a minute in all (the default mix
        /// when these make none); none at all for 0.
        public func scaled(toTotal total: Double) -> Calls {
            guard total > 0 else { return Calls(add: 0, copy: 0, update: 0, delete: 0) }
            let base = self.total > 0 ? self : Calls()
            let factor = total / base.total
            return Calls(add: base.add * factor, copy: base.copy * factor, update: base.update * factor, delete: base.delete * factor)
        }

        /// Each kind with its rate, in a fixed order.
        var rates: [(call: SecItemCall, perMinute: Double)] {
            [(.add, add), (.copyMatching, copy), (.update, update), (.delete, delete)]
        }

        /// Calls of every kind a minute.
        public var total: Double { add + copy + update + delete }

        func validate() throws(Invalid) {
            guard rates.allSatisfy({ $0.perMinute >= 0 && $0.perMinute.isFinite }), total <= 6_000 else {
                throw Invalid(description: "SecItem calls a device a minute must be 0 or more, at most 6000 in all")
            }
        }
    }

    /// Any key, to name one that is not a kind of call.
    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// How many items each device's calls spread over.
    public static let itemsPerDevice = 8
}

extension FleetPlan {
    /// The wait before the next of a run of events that come `perMinute` times a minute on
    /// average as a Poisson process (exponential gaps): events at random, not in lockstep.
    static func gap(perMinute: Double) -> Duration {
        let seconds = -(60 / perMinute) * log(Double.random(in: Double.ulpOfOne..<1))
        return .milliseconds(Int(min(seconds, 86_400) * 1000))
    }
}
