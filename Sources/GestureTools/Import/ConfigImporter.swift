/// One configuration file in, Lua rules and messages out.
public enum ConfigImporter {
    /// Real configurations are a few kilobytes; a larger file is no configuration.
    public static let maxBytes = 4 << 20

    public enum Failure: Error, Equatable {
        /// The content says no format, and none was given.
        case unknownFormat
        /// Not text: a NUL byte at this line.
        case binary(line: Int)
        /// Nothing but blanks.
        case empty
        /// Easystroke's actions file, which `EasystrokeImport` reads.
        case easystroke

        public var message: String {
            switch self {
            case .unknownFormat:
                return "cannot tell whether this is a fusuma, Touchégg or libinput-gestures configuration or Easystroke's actions file; give --format fusuma, touchegg, libinput-gestures or easystroke"
            case .empty:
                return "the file is empty: there is nothing to import"
            case .binary:
                return "this is not a text file (it has a NUL byte); give a fusuma config.yml, a touchegg.conf, a libinput-gestures.conf or Easystroke's actions-0.5.6"
            case .easystroke:
                return "Easystroke's actions file is read by EasystrokeImport, not as a configuration of lines"
            }
        }
    }

    /// The format a file is in: the one given, else the one its content says.
    public static func format(of bytes: [UInt8], given: ImportFormat?) -> Result<ImportFormat, Failure> {
        if let nul = bytes.firstIndex(of: 0) {
            return .failure(.binary(line: bytes[..<nul].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }))
        }
        if given == nil && bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return .failure(.empty)
        }
        guard let format = given ?? ImportFormat.detect(bytes) else { return .failure(.unknownFormat) }
        return .success(format)
    }

    public static func read(_ bytes: [UInt8], name: String, format given: ImportFormat?, fusuma: FusumaRelease = .three) -> Result<ImportResult, Failure> {
        let format: ImportFormat
        switch self.format(of: bytes, given: given) {
        case .success(let f): format = f
        case .failure(let failure): return .failure(failure)
        }
        var result: ImportResult
        switch format {
        case .easystroke: return .failure(.easystroke)
        case .fusuma: result = FusumaReader.read(bytes, version: fusuma.number)
        case .touchegg: result = ToucheggReader.read(bytes, name: name)
        case .libinputGestures: result = LibinputGesturesReader.read(bytes)
        }
        result.refuseIfTooMany()
        result.commentOutOverridden()
        result.refuseIfMoreRulesThanLoad()
        return .success(result)
    }
}
