-- expect: error
-- shown: \x1b]0;pwned\x07\x1b[2J\r
-- Names, speeches, printed lines and errors full of escape sequences reach
-- people escaped: no raw ESC, CR, LF, C1 or bidi override in any problem.
return {
  name = "\27[2J\27[HHostile\r\nteam 1 Explorer WINS\27]0;pwned\7",
  victory = "\194\155 31m \226\128\174 reversed",
  defeat = "\27[5mblink\127\255",
  run = function()
    print("\27[2J\27]52;c;cGF3bmVk\7 \r\n forged line")
    error("\27]0;pwned\7\27[2J\r\n\194\155")
  end,
}
