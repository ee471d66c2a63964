/// Whether C++'s `std::stoi` and `std::stoull` read a number from text or
/// throw, as Touchégg calls them on its settings: base 10, leading white space
/// skipped (the C locale's), an optional sign, then at least one digit; what
/// follows the digits is ignored. They throw on no digits at all, and on a
/// value outside the type (`std::stoull` wraps a negative one instead).
enum CppNumbers {
    static func stoiThrows(_ bytes: [UInt8]) -> Bool {
        guard let (negative, digits) = sign(andDigitsOf: bytes) else { return true }
        let limit: UInt64 = negative ? 2_147_483_648 : 2_147_483_647
        return value(of: digits, atMost: limit) == nil
    }

    static func stoullThrows(_ bytes: [UInt8]) -> Bool {
        guard let (_, digits) = sign(andDigitsOf: bytes) else { return true }
        return value(of: digits, atMost: UInt64.max) == nil
    }

    /// The sign and the run of digits after the white space; nil when there is no digit.
    private static func sign(andDigitsOf bytes: [UInt8]) -> (Bool, ArraySlice<UInt8>)? {
        var rest = bytes[...].drop { [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains($0) }
        var negative = false
        if let first = rest.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            rest = rest.dropFirst()
        }
        let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return digits.isEmpty ? nil : (negative, digits)
    }

    private static func value(of digits: ArraySlice<UInt8>, atMost limit: UInt64) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow1, !overflow2, sum <= limit else { return nil }
            value = sum
        }
        return value
    }
}
