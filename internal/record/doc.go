// Package record holds records, the flat form of every result: ordered
// lists of named values (Field), and their writers: CSV row by row, the
// streaming indented JSON writer, JSONObject (a compact object appended
// without reflection, as json.Marshal writes it), and the strict JSON
// reader whose errors name the field and line. engine and the experiment layer both write
// through it, so a name is spelled once for JSON and CSV.
//
// record.go holds Field, the CSV writers and the record sequences;
// append.go the reflection-free JSON object (JSONObject, AppendFloat);
// jsonout.go the streaming indented writer (WriteIndented); jsonerr.go the
// strict reader (DecodeStrict).
package record
