-- want: instruction budget
while true do end
