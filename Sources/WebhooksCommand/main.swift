// webhooks: argument parsing and one call per command; everything else is in the other files of this target.
Webhooks.main(Array(CommandLine.arguments.dropFirst()))
