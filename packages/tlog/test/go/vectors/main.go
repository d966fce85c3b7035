// Command vectors prints golden vectors for @storefront/tlog, made with Go's
// golang.org/x/mod/sumdb/tlog and sumdb/note: tree hashes, inclusion and
// consistency proofs, tile paths and contents, and a signed checkpoint.
//
//	cd packages/tlog/test/go/vectors && GO111MODULE=off GOPATH=/usr/share/gocode go run . > ../../fixtures/go-vectors.json
package main

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type memory []tlog.Hash

func (m memory) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		out[i] = m[x]
	}
	return out, nil
}

func entry(i int64) []byte { return []byte(fmt.Sprintf("entry %d", i)) }

func b64(h tlog.Hash) string { return base64.StdEncoding.EncodeToString(h[:]) }

type inclusion struct {
	Index int64    `json:"index"`
	Size  int64    `json:"size"`
	Proof []string `json:"proof"`
}

type consistency struct {
	Old   int64    `json:"old"`
	New   int64    `json:"new"`
	Proof []string `json:"proof"`
}

type tile struct {
	Level  int    `json:"level"`
	N      int64  `json:"n"`
	Width  int    `json:"width"`
	GoPath string `json:"goPath"`
	Sha256 string `json:"sha256"`
}

type signed struct {
	Seed string `json:"seed"`
	Name string `json:"name"`
	Vkey string `json:"vkey"`
	Text string `json:"text"`
	Note string `json:"note"`
}

type vectors struct {
	Entries     string            `json:"entries"`
	Roots       map[string]string `json:"roots"`
	Inclusion   []inclusion       `json:"inclusion"`
	Consistency []consistency     `json:"consistency"`
	Tiles       []tile            `json:"tiles"`
	Paths       map[string]string `json:"paths"`
	Note        signed            `json:"note"`
}

func main() {
	const max = 1100
	var stored memory
	for i := int64(0); i < max; i++ {
		hs, err := tlog.StoredHashes(i, entry(i), stored)
		if err != nil {
			panic(err)
		}
		stored = append(stored, hs...)
	}
	v := vectors{Entries: "entry <i>", Roots: map[string]string{}, Paths: map[string]string{}}
	sizes := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 255, 256, 257, 511, 512, 513, 1000, 1024, 1100}
	for _, n := range sizes {
		h, err := tlog.TreeHash(n, stored)
		if err != nil {
			panic(err)
		}
		v.Roots[fmt.Sprint(n)] = b64(h)
	}
	for _, n := range sizes {
		for _, i := range []int64{0, 1, n / 2, n - 2, n - 1} {
			if i < 0 || i >= n {
				continue
			}
			p, err := tlog.ProveRecord(n, i, stored)
			if err != nil {
				panic(err)
			}
			proof := []string{}
			for _, h := range p {
				proof = append(proof, b64(h))
			}
			v.Inclusion = append(v.Inclusion, inclusion{i, n, proof})
		}
	}
	for _, n := range sizes {
		for _, m := range []int64{1, 2, 3, 7, 8, n / 2, n - 1, n} {
			if m < 1 || m > n {
				continue
			}
			p, err := tlog.ProveTree(n, m, stored)
			if err != nil {
				panic(err)
			}
			proof := []string{}
			for _, h := range p {
				proof = append(proof, b64(h))
			}
			v.Consistency = append(v.Consistency, consistency{m, n, proof})
		}
	}
	for _, t := range tlog.NewTiles(8, 0, 1100) {
		if t.W != 256 && t.W%50 != 0 && t.W != 1 && t.W != 4 && t.W != 76 {
			continue
		}
		data, err := tlog.ReadTileData(t, stored)
		if err != nil {
			panic(err)
		}
		sum := sha256.Sum256(data)
		v.Tiles = append(v.Tiles, tile{t.L, t.N, t.W, t.Path(), hex.EncodeToString(sum[:])})
	}
	for _, t := range []tlog.Tile{{H: 8, L: 0, N: 1234067, W: 256}, {H: 8, L: 1, N: 999, W: 3}, {H: 8, L: 2, N: 1000, W: 256}, {H: 8, L: 0, N: 0, W: 7}} {
		v.Paths[fmt.Sprintf("%d/%d/%d", t.L, t.N, t.W)] = t.Path()
	}

	seed := make([]byte, 32)
	for i := range seed {
		seed[i] = byte(i)
	}
	name := "example.com/log"
	pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
	vkey, err := note.NewEd25519VerifierKey(name, pub)
	if err != nil {
		panic(err)
	}
	parts := strings.Split(vkey, "+")
	skey := "PRIVATE+KEY+" + name + "+" + parts[1] + "+" + base64.StdEncoding.EncodeToString(append([]byte{1}, seed...))
	signer, err := note.NewSigner(skey)
	if err != nil {
		panic(err)
	}
	root, _ := tlog.TreeHash(1000, stored)
	text := fmt.Sprintf("%s\n1000\n%s\n", name, b64(root))
	msg, err := note.Sign(&note.Note{Text: text}, signer)
	if err != nil {
		panic(err)
	}
	v.Note = signed{hex.EncodeToString(seed), name, vkey, text, string(msg)}

	out := json.NewEncoder(os.Stdout)
	out.SetIndent("", "  ")
	if err := out.Encode(v); err != nil {
		panic(err)
	}
}
