-- want: must return a table
return 42
