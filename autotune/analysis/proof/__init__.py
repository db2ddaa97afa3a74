"""The legality proof: a dimension of a loop varies only when the result cannot change.

``program`` reads every file of the program into one table of functions, calls
and stores; ``pointsto`` says which objects a pointer may reach; ``refs`` walks a
loop (and the functions it calls) into memory references with symbolic
subscripts and the scalar data flow of one iteration; ``deps`` asks isl whether
any dependence is carried by the worksharing loop; ``verdict`` puts it together
into the reasons a dimension is kept as written.
"""
