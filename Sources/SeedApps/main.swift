// storedaemon: the daemon hosting the seed apps (counter, dice, online store,
// BMI, GIF search). See `storedaemon --help` and docs/CLI.md.
import StoreDaemon

SeedApps.runDaemon()
