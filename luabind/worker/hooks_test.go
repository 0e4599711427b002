package worker

import "github.com/squarebattle/squarebattle/luabind/worker/testhooks"

// testHooks are the builtins the sandbox must never offer, fielded only in
// this test binary's workers (TestMain).
var testHooks = testhooks.Globals
