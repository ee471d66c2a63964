/// Completion scripts for bash, zsh and fish, written from `CompletionTable`.
enum CompletionScripts {
    static func bash(_ table: CompletionTable) -> String {
        var out = """
        # bash completion for gesturemap; made by `gesturemap completions bash` from its --help texts
        _gesturemap() {
          local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
          if [ "$COMP_CWORD" -eq 1 ]; then
            COMPREPLY=( $(compgen -W "\(table.commands.map(\.name).joined(separator: " ")) help --help --version" -- "$cur") )
            return
          fi
          case "${COMP_WORDS[1]}" in

        """
        for command in table.commands {
            let paths = command.options.filter(\.takesPath).flatMap(\.names)
            let others = command.options.filter { $0.argument != nil && !$0.takesPath }.flatMap(\.names)
            out += "    \(command.name))\n"
            out += "      case \"$prev\" in\n"
            if !paths.isEmpty { out += "        \(paths.joined(separator: "|"))) COMPREPLY=( $(compgen -f -- \"$cur\") ); return ;;\n" }
            if !others.isEmpty { out += "        \(others.joined(separator: "|"))) COMPREPLY=(); return ;;\n" }
            out += "      esac\n"
            out += "      COMPREPLY=( $(compgen -W \"\(command.options.flatMap(\.names).joined(separator: " "))\" -- \"$cur\") )\n"
            if command.takesPaths { out += "      [[ \"$cur\" != -* ]] && COMPREPLY+=( $(compgen -f -- \"$cur\") )\n" }
            out += "      ;;\n"
        }
        out += """
          esac
        }
        complete -o filenames -F _gesturemap gesturemap

        """
        return out
    }

    static func zsh(_ table: CompletionTable) -> String {
        var out = """
        #compdef gesturemap
        # zsh completion for gesturemap; made by `gesturemap completions zsh` from its --help texts
        _gesturemap() {
          local -a commands
          commands=(

        """
        for command in table.commands { out += "    \(quoted(command.name + ":" + zshDescription(command.summary)))\n" }
        out += """
          )
          if (( CURRENT == 2 )); then
            _describe 'command' commands
            return
          fi
          case $words[2] in

        """
        for command in table.commands {
            var specs: [String] = []
            for option in command.options {
                let action = option.argument.map { ":\(zshDescription($0.lowercased())):" + (option.takesPath ? "_files" : " ") } ?? ""
                for name in option.names { specs.append(quoted("\(name)[\(zshDescription(option.summary))]\(action)")) }
            }
            if command.takesPaths { specs.append(quoted("*:file:_files")) }
            out += "    \(command.name)) _arguments \(specs.joined(separator: " ")) ;;\n"
        }
        out += """
          esac
        }
        _gesturemap "$@"

        """
        return out
    }

    static func fish(_ table: CompletionTable) -> String {
        var out = "# fish completion for gesturemap; made by `gesturemap completions fish` from its --help texts\n"
        out += "complete -c gesturemap -f\n"
        for command in table.commands {
            out += "complete -c gesturemap -n __fish_use_subcommand -a \(command.name) -d \(quoted(command.summary))\n"
        }
        for command in table.commands {
            let condition = quoted("__fish_seen_subcommand_from \(command.name)")
            if command.takesPaths { out += "complete -c gesturemap -n \(condition) -F\n" }
            for option in command.options {
                var line = "complete -c gesturemap -n \(condition)"
                for name in option.names {
                    line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
                }
                if option.argument != nil { line += option.takesPath ? " -r -F" : " -r" }
                if !option.summary.isEmpty { line += " -d \(quoted(option.summary))" }
                out += line + "\n"
            }
        }
        return out
    }

    /// Single-quoted for a shell: a quote inside becomes '\''.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "'\\''") + "'"
    }

    /// zsh's _arguments reads `[`, `]` and `:` in a description as its own syntax.
    private static func zshDescription(_ text: String) -> String {
        text.replacingAll("\\", with: "\\\\").replacingAll("[", with: "\\[").replacingAll("]", with: "\\]").replacingAll(":", with: "\\:")
    }
}

extension String {
    /// Every `target` replaced (Foundation is not imported here).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while !rest.isEmpty {
            if rest.hasPrefix(target) {
                out += replacement
                rest = rest.dropFirst(target.count)
            } else {
                out.append(rest.removeFirst())
            }
        }
        return out
    }
}
