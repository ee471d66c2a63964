/// What a name in key() means: the kernel keys it presses.
///
/// A name matches in any case and with or without `_` (Page_Down is PageDown).
/// gesturemap's aliases and the X names are read before the kernel's, so Next
/// is PageDown and Menu the context-menu key, as in X; a KEY_ prefix asks for
/// the kernel's own name (KEY_NEXT, KEY_MENU).
enum KeyNames {
    typealias Key = (name: String, code: UInt16)

    /// The keys `name` presses, or nil when it names none.
    static func keys(named name: String) -> [Key]? {
        let lower = name.utf8.map(asciiLowercased)
        if lower.starts(with: "key_".utf8) {
            return kernel[foldedKeyName(utf8: lower.dropFirst(4))].map { [$0] }
        }
        let folded = foldedKeyName(utf8: lower)
        return others[folded] ?? kernel[folded].map { [$0] }
    }

    /// The kernel's names, without KEY_, folded.
    static let kernel: [String: Key] = Dictionary(
        KernelKeys.codes.map { (foldedKeyName($0.key.dropFirst(4)), ($0.key, $0.value)) },
        uniquingKeysWith: { a, b in a.name < b.name ? a : b })

    /// The aliases and X names, folded; an alias wins over an X name.
    static let others: [String: [Key]] = Dictionary(
        (keyAliases.map { ($0.name, [$0.key]) } + xKeysymNames.map { ($0.name, $0.keys) })
            .compactMap { name, keys in resolved(keys).map { (foldedKeyName(name), $0) } },
        uniquingKeysWith: { first, _ in first })

    /// Kernel names → keys; nil if one is not in the kernel's table.
    static func resolved(_ names: [String]) -> [Key]? {
        var keys: [Key] = []
        for name in names {
            guard let code = KernelKeys.codes[name] else { return nil }
            keys.append((name, code))
        }
        return keys
    }
}

/// ASCII letters lowercased, `_` dropped. Other characters stay as they are: no
/// name has them, and a Unicode case mapping could turn one into a name (the
/// Kelvin sign lowercases to k).
func foldedKeyName(_ name: some StringProtocol) -> String {
    foldedKeyName(utf8: name.utf8)
}

func foldedKeyName(utf8: some Sequence<UInt8>) -> String {
    var bytes: [UInt8] = []
    for byte in utf8 where byte != UInt8(ascii: "_") { bytes.append(asciiLowercased(byte)) }
    return String(decoding: bytes, as: UTF8.self)
}

func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
}
