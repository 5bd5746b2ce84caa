/// `tcactl`'s help texts.
enum Usage {
  static let general = """
    usage: tcactl [--socket PATH | --app NAME] [--store NAME] <command> [arguments] [options]

    Sends actions to storedaemon and shows its state.

    commands:
      send PATH [ARGS...]   send an action, e.g. `tcactl send cart.addItem 3`; prints the version it produced
      get [PATH]            print the state, or the part at PATH (e.g. `cart`, `cart.items.0`, `/cart`)
      watch [PATH]          show every change live (--since N resumes after version N)
      log                   show the history of actions from the journal: when, who, what changed
      what-if --without N   show how the state would differ had version N's action not happened
                            (--replace N PATH [ARGS...]: had another action happened instead)
      actions               list the action paths a client may send, with their arguments (--all: every one)
      status                show the daemon's status and its effect workers
      stores                list the daemon's stores, open and closed: version, clients, size, last action
      help COMMAND          show a command's usage and options (also `tcactl COMMAND --help`)

    options:
      --socket PATH   the daemon's socket, or tcp://HOST:PORT for its TCP listener (default:
                      $TCA_SOCKET, else the daemon's default); for a replicated store, its
                      daemons' sockets separated by commas (A,B,…): reads go to the first
                      that answers, sends follow the leader
      --app NAME      the daemon's name, for its default socket and service user
                      (default: $TCA_APP, else storedaemon; a hosted app's daemon has its own)
      --daemon-user USER
                      the user the daemon must run as, a name or uid (default: $TCA_DAEMON_USER,
                      else you, root or storedaemon); a socket served by anyone else is refused
      --token-file FILE
                      the token for a daemon's TCP listener, named tcp://HOST:PORT in --socket
                      (default: $TCA_TOKEN_FILE)
      --store NAME    one of the daemon's stores by name, opened on first use (default:
                      $TCA_STORE, else the daemon's default store)
      --json          machine-readable output
      --help, -h      help for a command, e.g. `tcactl send --help`

    changes show as `+ PATH: NEW`, `- PATH: OLD`, `~ PATH: OLD → NEW`; a value longer
    than 60 characters is cut with `…` (--full shows it whole)

    exit status: 0 ok, 1 action or request rejected, 2 usage error, 69 daemon unreachable
    """

  /// The help for `command`: its own, or the general help for `help`
  /// and `version`.
  static func help(for command: Command) -> String {
    Self.command(command.rawValue) ?? general
  }

  static func command(_ name: String) -> String? {
    switch name {
    case "send":
      return """
        usage: tcactl send PATH [ARGS...] [--json]
               tcactl send PATH [ARGS...] --wait [--timeout S] [--full | --json]

        Sends the action at PATH with ARGS as its associated values and prints the
        state version it produced. With --wait, also waits (up to --timeout S,
        default 30) until every effect that followed from the action has finished,
        and prints each change they made, as `~ PATH: OLD → NEW`, `+ PATH: NEW` or
        `- PATH: OLD`, values cut at 60 characters unless --full.

        Paths name enum cases from the root down:
          tcactl send counter.incrementButtonTapped
          tcactl send cart.addItem 3
          tcactl send products.rows[3].addToCart.plusButtonTapped
          tcactl send bmi.input.binding.height 180
          tcactl send search.textChanged "cute cats"
        `tcactl actions` lists the paths a client may send. An unknown path or a
        wrong argument is rejected (exit 1) with the nearest valid paths, and so
        is an internal action, which only effects and storedaemon send, unless
        the daemon runs with --allow-internal-actions. A word after PATH that
        starts with `-` is a value (`tcactl send search.textChanged -x`), -h
        excepted; after `--`, every word is.

        With several sockets (--socket A,B,…: a replicated store's daemons), a
        standby that refuses the action (not_leader) passes it on: to the
        leader it names if that socket is in the list, else to the next one.
        While the store elects a leader, send tries the list again, a little
        later each round, for up to 30 s (--timeout S with --wait); then it
        fails, saying what each socket said. A send whose connection ended
        before its answer is not sent again: it may or may not have been
        applied (exit 69).
        """
    case "get":
      return """
        usage: tcactl get [PATH] [--at V] [--json]

        Prints the state (or the part at PATH, dotted like `cart.items` or a JSON
        Pointer like `/cart/items`) as indented JSON; --json prints it compact.
        --at V prints it as it was at version V, rebuilt from the journal, if the
        journal still holds that version (`tcactl log` shows which it holds).
        """
    case "log":
      return """
        usage: tcactl log [-n N] [--since V] [-f|--follow] [--full | --json]

        Shows the actions the daemon has reduced, oldest first, from its journal:
        each version with when it happened, who sent it (a client by name, or an
        effect of a client's action, `#N` linking the two) and the action, then
        what it changed: `+ PATH: NEW` added, `- PATH: OLD` removed,
        `~ PATH: OLD → NEW` replaced; values are cut at 60 characters unless
        --full. By default the last 20; -n N shows the last N, --since V those
        after version V (with -n, the last N of those). --follow then keeps
        showing each new action once it is durable, across a daemon's restart
        (it connects again, as watch does); stop with ^C. With --json,
        one JSON object per line, values whole:
        {"action":…,"origin":…,"patch":[…],"summary":"…","time":ms,"version":N}.
        The journal holds the actions since about the last snapshot; older
        versions are refused, naming the oldest one held.
        """
    case "what-if":
      return """
        usage: tcactl what-if --without N [--at V] [--full | --json]
               tcactl what-if --replace N PATH [ARGS...] [--at V] [--full | --json]

        Shows how the state at version V (default: the current one) would differ
        had the action of version N not happened (--without), or had the action
        at PATH with ARGS happened in its place (--replace; any action, internal
        ones too, since nothing is applied). The daemon replays its journal from
        version N on through its reducers, each action with the dates, UUIDs and
        random numbers it drew, without running effects: the actions effects
        sent are replayed as they were recorded. Each difference shows as
        `~ PATH: RECORDED → WOULD BE`, `+ PATH: WOULD BE` or `- PATH: RECORDED`;
        then what the replay met (an action the reducers dropped on the other
        path). Nothing changes in the daemon. With --json, one object:
        {"edited":N,"notes":[…],"patch":[…],"recorded":…,"version":V}.
        N must come after the oldest snapshot the daemon keeps; if it does not,
        the daemon says which versions it can replay.
        """
    case "watch":
      return """
        usage: tcactl watch [PATH] [--since N [--epoch E]] [--full | --json]

        Shows the state at PATH, then every change as it happens: the version, the
        action that caused it and what changed (`~ PATH: OLD → NEW`, `+ PATH: NEW`,
        `- PATH: OLD`, PATH relative to the watched part; values cut at 60
        characters unless --full). --since N resumes after version N if the
        daemon still holds it; give --epoch E (from `tcactl status`) so that
        a version from another line of versions (before a --repair, or another
        state directory) starts afresh instead of being mistaken for this one's.
        With --json, prints one JSON object per line: first {"state":…,"version":N}
        (or {"epoch":E,"resumedAfter":N} when resuming), then
        {"action":"…","patch":[…],"version":N} per change.
        A connection that ends (the daemon restarts, or a replicated store's
        leader changes; --socket A,B,… for its daemons) is made again to the
        first socket that answers, as long as it takes, resuming after the last
        version shown; standard error says so. Stops with ^C.
        """
    case "actions":
      return """
        usage: tcactl actions [--all] [--json]

        Lists every action path a client may send, with its arguments and their
        types and what it does. --all also lists the internal actions, which only
        effects and storedaemon send (responses, timers landing, recoveries),
        each marked [internal: sent by …]; the daemon refuses them from clients
        unless it runs with --allow-internal-actions. --json prints the daemon's
        list as it is, with each action's JSON form (docs/PROTOCOL.md, "Actions
        as JSON").
        """
    case "status":
      return """
        usage: tcactl status [--json]

        Shows the daemon's version, pid, uptime, epoch, state version, clients,
        subscribers, effects in flight, socket and state directory; for a daemon of
        a replicated store, the store, its role (leading or following) and the
        leader; then a table of its effect workers: kind, state, pid, restarts,
        requests in flight and queued, and how its last process ended.
        """
    case "stores":
      return """
        usage: tcactl stores [--json]

        Lists the daemon's stores in name order, its default store first: whether
        each is open (in memory) or closed (on disk, opened again by its next
        client), its version, its clients, the bytes its journal and stored
        documents take on disk, and when its newest action happened and what it
        was. --json prints one JSON object per store (docs/PROTOCOL.md, "Stores").
        It names no store, and opens none.
        """
    default:
      return nil
    }
  }
}
