public import Decisions

/// The engine's rules are the rules of keychaind's decisions (``Decision``).
extension SecItemError.Rule: DecisionRule {}
