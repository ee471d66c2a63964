/// A button of the virtual pointer; the raw values are the rule language's spellings.
public enum PointerButton: String, CaseIterable, Sendable {
    case left, right, middle
}
