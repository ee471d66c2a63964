import GestureCore

// Tests name rules by their place as written (`out.map(\.rule) == [0, 1]`);
// the engine itself only ever makes ids from its own rule lists.
extension RuleID: ExpressibleByIntegerLiteral {
    public init(integerLiteral index: Int) { self.init(index) }
}
