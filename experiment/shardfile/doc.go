// Package shardfile is the shard file format of package experiment: what
// `routelab compare|sweep|study --shard i/n --out FILE` writes and
// `routelab merge` reads. A file says which experiment it is part of (the
// canonical configuration and its sha256), which build made it, which
// shard it is and, for each of its runs, the run's number and its whole
// record (engine.AppendRunJSON: the names compare --json uses, every float
// to the bit). It is one JSON object, so a file cut short does not parse.
//
// shardfile.go holds the file, its configuration, Encode and Read with
// their checks; head.go the reading of a development shard's head alone
// (ReadHead, HeadReader), which a study's second round does 30 times over.
package shardfile
