/// A command line that the original tool gave to a shell, as the action that does the same.
enum CommandAction {
    /// `xdotool key COMBO` with nothing a shell would change becomes `key()`;
    /// anything else stays a shell command line, as the tool ran it.
    static func shellCommand(_ line: String) -> ImportedAction {
        if let words = ShellWords.plainWords(line), let keys = KeyTranslation.xdotoolKeys(words) {
            return .keys(keys)
        }
        return .shell(line)
    }
}
