import GestureEngine
import GestureServe

/// `gesturemap serve`: a phone's browser as the touch surface. Its own
/// options, then every option of `run`.
enum ServeCommand {
    static let help = """
    usage: gesturemap serve [--rules FILE] [--listen ADDR:PORT] [--max-clients N] [RUN OPTIONS] [INPUT ...]

    Serves a touch page on the local network. Open the URL it prints (or scan the
    QR code) on a phone: the whole screen becomes a touch surface, each connected
    page is one touch device named "phone ADDR:PORT" (g.device; device = "phone"
    picks them), and the rules run as with gesturemap run. The page shows each
    gesture's name. Inputs named as with run are read as well. Stop with Ctrl-C.

    The URL carries a random token; requests without it get 403 and nothing else.
    Without --cert, plain HTTP: use it on a LAN you trust (see docs/serve.md).

    options:
      --listen ADDR[:PORT]    where to listen (default: this machine's first private LAN
                              address, port \(ListenAddress.defaultPort)); a public address, or 0.0.0.0,
                              only when named here; 127.0.0.1 for this machine only; port 0
                              lets the system pick one
      --max-clients N         pages connected at once, 1 to 16 (default 1); more are refused
      --cert FILE --key FILE  serve HTTPS and WSS with this certificate and its unencrypted
                              private key (PEM); the phone's browser must trust the certificate
      --resolution N          CSS px per millimetre (default 6.3, a phone's 160 per inch)
      -h, --help              this text
    and every option of gesturemap run (gesturemap run --help).

    exit status as run's; 69 when there is nowhere to listen
    """

    static func main(_ args: [String], console: Console) -> ExitCode {
        do throws(UsageError) {
            guard var options = try parse(args) else {
                printOut(help)
                return .ok
            }
            RulesLookup.apply(to: &options, console: console)
            StopSignals.unblock()
            return Engine(options: options, console: console, output: LineOutput.standardOutput)?.run() ?? .unavailable
        } catch {
            return usageFailure(error, command: "serve", console: console)
        }
    }

    /// The options, or nil when help was asked for.
    static func parse(_ args: [String]) throws(UsageError) -> RunOptions? {
        var settings = ServeSettings()
        var rest: [String] = []
        var a = Arguments(args, command: "serve")
        while let arg = a.next() {
            let (name, inline) = Arguments.split(arg)
            switch name {
            case "--":
                rest.append(arg)
                while let positional = a.next() { rest.append(positional) }
            case "-h", "--help":
                return nil
            case "--listen":
                let text = try a.value(for: name, inline: inline)
                guard let address = ListenAddress.parse(text) else {
                    throw UsageError(message: "--listen takes an IPv4 address and a port, as 192.168.1.5:8023 or 127.0.0.1:0, not \"\(text)\"")
                }
                settings.listen = address
            case "--max-clients":
                let text = try a.value(for: name, inline: inline)
                guard let n = Int(text), (1...16).contains(n) else {
                    throw UsageError(message: "--max-clients takes a number of pages from 1 to 16, not \"\(text)\"")
                }
                settings.maxClients = n
            case "--cert":
                settings.certificate = try a.value(for: name, inline: inline)
            case "--key":
                settings.privateKey = try a.value(for: name, inline: inline)
            default:
                rest.append(arg)
            }
        }
        if (settings.certificate == nil) != (settings.privateKey == nil) {
            throw UsageError(message: "--cert and --key go together: the certificate and its private key, both PEM files")
        }
        guard var options = try RunCommand.parse(rest, command: "serve") else { return nil }
        options.serve = settings
        options.detectsAppSource = true
        return options
    }
}
