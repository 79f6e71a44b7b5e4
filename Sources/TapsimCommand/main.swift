// tapsim: argument parsing and one call; everything else is in the other files of this target.
await Tapsim.main(Array(CommandLine.arguments.dropFirst()))
