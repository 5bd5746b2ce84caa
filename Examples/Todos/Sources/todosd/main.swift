// todosd: the Todos app's daemon. See `todosd --help` and the README.
TodosApp.runDaemon()
