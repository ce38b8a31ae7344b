"""Everything that talks to the outside: the service, storage, Discord and the console."""
