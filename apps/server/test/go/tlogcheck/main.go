// Command tlogcheck checks a Storefront transparency log with Go's reference
// implementations, golang.org/x/mod/sumdb/note and golang.org/x/mod/sumdb/tlog, and
// nothing else: the checkpoint's signature against the log's verifier key, the
// consistency of an older checkpoint with it, the inclusion proof of each receipt named,
// and the tiles, read over HTTP and authenticated against the checkpoint.
//
//	tlogcheck -log http://127.0.0.1:3000/log -vkey <vkey> [-old old-checkpoint.txt] <receipt hash>...
//
// It exits 0 when every check passes, 1 when one fails, 2 on bad usage.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type checkpoint struct {
	origin string
	tree   tlog.Tree
}

// openCheckpoint checks the note's signature by the log key, then parses the body
// (C2SP tlog-checkpoint): origin, size, base64 root hash, optional extension lines.
func openCheckpoint(msg []byte, verifier note.Verifier) (checkpoint, error) {
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		return checkpoint{}, fmt.Errorf("checkpoint signature: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(n.Text, "\n"), "\n")
	if len(lines) < 3 {
		return checkpoint{}, errors.New("checkpoint: fewer than three lines")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return checkpoint{}, fmt.Errorf("checkpoint: bad size %q", lines[1])
	}
	root, err := tlog.ParseHash(lines[2])
	if err != nil {
		return checkpoint{}, fmt.Errorf("checkpoint: bad root %q", lines[2])
	}
	if lines[0] != verifier.Name() {
		return checkpoint{}, fmt.Errorf("checkpoint: origin %q is not the key's name %q", lines[0], verifier.Name())
	}
	return checkpoint{lines[0], tlog.Tree{N: size, Hash: root}}, nil
}

func get(url string) ([]byte, error) {
	res, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, res.Status)
	}
	return body, nil
}

func hashes(list []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(list))
	for i, s := range list {
		h, err := tlog.ParseHash(s)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// tiles reads C2SP tiles over HTTP: Go names a tile tile/8/<L>/<N>, C2SP tile/<L>/<N>.
type tiles struct{ base string }

func (t tiles) Height() int { return 8 }

func (t tiles) ReadTiles(list []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(list))
	for i, tile := range list {
		path := strings.TrimPrefix(tile.Path(), "tile/8/")
		data, err := get(t.base + "/tile/" + path)
		if err != nil {
			return nil, err
		}
		out[i] = data
	}
	return out, nil
}

func (t tiles) SaveTiles([]tlog.Tile, [][]byte) {}

// bundleEntry returns entry i of an entry bundle (16-bit big-endian length prefixes).
func bundleEntry(bundle []byte, i int) ([]byte, error) {
	for at, n := 0, 0; at < len(bundle); n++ {
		if at+2 > len(bundle) {
			return nil, errors.New("entry bundle: truncated length")
		}
		size := int(bundle[at])<<8 | int(bundle[at+1])
		at += 2
		if at+size > len(bundle) {
			return nil, errors.New("entry bundle: truncated entry")
		}
		if n == i {
			return bundle[at : at+size], nil
		}
		at += size
	}
	return nil, fmt.Errorf("entry bundle: no entry %d", i)
}

func run() error {
	logURL := flag.String("log", "", "the log's URL prefix (…/log)")
	vkey := flag.String("vkey", "", "the log's verifier key (name+hexid+base64key)")
	oldFile := flag.String("old", "", "an older checkpoint of the log, to check consistency with")
	flag.Parse()
	if *logURL == "" || *vkey == "" {
		flag.Usage()
		os.Exit(2)
	}
	base := strings.TrimSuffix(*logURL, "/")
	verifier, err := note.NewVerifier(*vkey)
	if err != nil {
		return fmt.Errorf("vkey: %v", err)
	}

	msg, err := get(base + "/checkpoint")
	if err != nil {
		return err
	}
	cp, err := openCheckpoint(msg, verifier)
	if err != nil {
		return err
	}
	fmt.Printf("checkpoint  %s, size %d, root %s: signature by %s+%08x verifies (note.Open)\n",
		cp.origin, cp.tree.N, cp.tree.Hash, verifier.Name(), verifier.KeyHash())

	reader := tlog.TileHashReader(cp.tree, tiles{base})
	root, err := tlog.TreeHash(cp.tree.N, reader)
	if err != nil {
		return fmt.Errorf("tiles: %v", err)
	}
	if root != cp.tree.Hash {
		return errors.New("tiles: the tree hash from the tiles is not the checkpoint's")
	}
	fmt.Printf("tiles       the tiles give the checkpoint's root (TileHashReader, TreeHash)\n")

	if *oldFile != "" {
		oldMsg, err := os.ReadFile(*oldFile)
		if err != nil {
			return err
		}
		old, err := openCheckpoint(oldMsg, verifier)
		if err != nil {
			return fmt.Errorf("old %v", err)
		}
		var answer struct{ Proof []string }
		body, err := get(fmt.Sprintf("%s/consistency?old=%d&new=%d", base, old.tree.N, cp.tree.N))
		if err != nil {
			return err
		}
		if err := json.Unmarshal(body, &answer); err != nil {
			return fmt.Errorf("consistency: %v", err)
		}
		proof, err := hashes(answer.Proof)
		if err != nil {
			return fmt.Errorf("consistency: %v", err)
		}
		if err := tlog.CheckTree(proof, cp.tree.N, cp.tree.Hash, old.tree.N, old.tree.Hash); err != nil {
			return fmt.Errorf("consistency %d -> %d: %v", old.tree.N, cp.tree.N, err)
		}
		// The same proof, made by Go from the tiles, checks too.
		own, err := tlog.ProveTree(cp.tree.N, old.tree.N, reader)
		if err != nil {
			return fmt.Errorf("consistency from tiles: %v", err)
		}
		if err := tlog.CheckTree(own, cp.tree.N, cp.tree.Hash, old.tree.N, old.tree.Hash); err != nil {
			return fmt.Errorf("consistency from tiles: %v", err)
		}
		fmt.Printf("consistent  size %d -> %d: the proof verifies (CheckTree), and so does one made from the tiles\n",
			old.tree.N, cp.tree.N)
	}

	for _, receipt := range flag.Args() {
		var answer struct {
			Index int64
			Size  int64
			Entry string
			Proof []string
		}
		body, err := get(fmt.Sprintf("%s/proof?receipt=%s&size=%d", base, receipt, cp.tree.N))
		if err != nil {
			return err
		}
		if err := json.Unmarshal(body, &answer); err != nil {
			return fmt.Errorf("proof: %v", err)
		}
		sum := sha256.Sum256([]byte(answer.Entry))
		if hex.EncodeToString(sum[:]) != strings.ToLower(strings.TrimPrefix(receipt, "0x")) {
			return fmt.Errorf("receipt %s: the entry answered is not the receipt's", receipt)
		}
		proof, err := hashes(answer.Proof)
		if err != nil {
			return fmt.Errorf("receipt %s: %v", receipt, err)
		}
		leaf := tlog.RecordHash([]byte(answer.Entry))
		if err := tlog.CheckRecord(proof, cp.tree.N, cp.tree.Hash, answer.Index, leaf); err != nil {
			return fmt.Errorf("receipt %s at %d: %v", receipt, answer.Index, err)
		}
		// The tiles hold the same leaf, and the entry bundle the same entry.
		got, err := reader.ReadHashes([]int64{tlog.StoredHashIndex(0, answer.Index)})
		if err != nil {
			return fmt.Errorf("receipt %s: tiles: %v", receipt, err)
		}
		if got[0] != leaf {
			return fmt.Errorf("receipt %s: the tile's leaf hash is not the entry's", receipt)
		}
		n := answer.Index / 256
		width := cp.tree.N - n*256
		path := tlog.Tile{H: 8, L: 0, N: n, W: 256}.Path()
		if width < 256 {
			path = tlog.Tile{H: 8, L: 0, N: n, W: int(width)}.Path()
		}
		bundle, err := get(base + "/tile/entries/" + strings.TrimPrefix(path, "tile/8/0/"))
		if err != nil {
			return err
		}
		entry, err := bundleEntry(bundle, int(answer.Index%256))
		if err != nil {
			return fmt.Errorf("receipt %s: %v", receipt, err)
		}
		if !bytes.Equal(entry, []byte(answer.Entry)) {
			return fmt.Errorf("receipt %s: the entry bundle holds another entry", receipt)
		}
		fmt.Printf("receipt     %s… index %d: inclusion proof verifies (CheckRecord); tile and entry bundle agree\n",
			receipt[:16], answer.Index)
	}
	fmt.Println("ok")
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Println("FAIL:", err)
		os.Exit(1)
	}
}
