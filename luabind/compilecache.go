package luabind

import (
	"container/list"
	"crypto/sha256"
	"sync"

	lua "github.com/yuin/gopher-lua"
)

// A process compiles a file once: the catalog, check, a hot reload and the
// server's submit all read the same files again and again, and the
// compiled prototype of a source under a name is always the same
// immutable value (team VMs only ever make closures of it). The cache is
// keyed by the file's name, its bytes' SHA-256 and the size limit, and
// bounded by count and by source bytes, least recently used first out.
const (
	compileCacheEntries = 1024
	compileCacheBytes   = 64 << 20
)

type compileKey struct {
	name     string
	sum      [sha256.Size]byte
	maxBytes int
}

type compiled struct {
	key   compileKey
	proto *lua.FunctionProto
	err   error
	size  int
}

var compileCache = struct {
	sync.Mutex
	order *list.List // of *compiled, most recent at the front
	byKey map[compileKey]*list.Element
	bytes int
}{order: list.New(), byKey: map[compileKey]*list.Element{}}

// compileCached is compileScript through the cache.
func compileCached(name string, src []byte, maxBytes int) (*lua.FunctionProto, error) {
	if len(src) > maxBytes {
		return compileScript(name, src, maxBytes) // refused at once, nothing to keep
	}
	k := compileKey{name: name, sum: sha256.Sum256(src), maxBytes: maxBytes}
	c := &compileCache
	c.Lock()
	if e, ok := c.byKey[k]; ok {
		c.order.MoveToFront(e)
		v := e.Value.(*compiled)
		c.Unlock()
		return v.proto, v.err
	}
	c.Unlock()
	proto, err := compileScript(name, src, maxBytes)
	c.Lock()
	defer c.Unlock()
	if _, ok := c.byKey[k]; !ok {
		c.byKey[k] = c.order.PushFront(&compiled{key: k, proto: proto, err: err, size: len(src)})
		c.bytes += len(src)
		for c.order.Len() > compileCacheEntries || c.bytes > compileCacheBytes {
			old := c.order.Remove(c.order.Back()).(*compiled)
			delete(c.byKey, old.key)
			c.bytes -= old.size
		}
	}
	return proto, err
}
