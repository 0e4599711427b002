// The Go starter kit is a module of its own, so the folder can be copied
// anywhere and built there with the standard library alone. Rename the
// module when you make it yours.
module example.com/bots

go 1.22
