// Command cosigcheck verifies a checkpoint's log signature and a witness's Ed25519
// cosignature (C2SP tlog-cosignature, cosignature/v1) with Go's golang.org/x/mod/sumdb/note:
// the note package opens the checkpoint; the cosignature's message and signature layout
// are supplied as a note.Verifier, as the note package lets any key type be.
//
// Usage: cosigcheck <log vkey> <witness vkey> < checkpoint
// Prints "ok <timestamp>" and exits 0, or prints the failure and exits 1.
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
)

const algCosignatureV1 = 0x04

type cosigVerifier struct {
	name string
	hash uint32
	key  ed25519.PublicKey
	seen *uint64
}

func (v cosigVerifier) Name() string    { return v.name }
func (v cosigVerifier) KeyHash() uint32 { return v.hash }

// Verify checks sig = u64 timestamp || Ed25519 signature over
// "cosignature/v1\ntime <timestamp>\n" || msg.
func (v cosigVerifier) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	t := binary.BigEndian.Uint64(sig[:8])
	if t == 0 || t > 1<<63-1 {
		return false
	}
	var m bytes.Buffer
	m.WriteString("cosignature/v1\ntime " + strconv.FormatUint(t, 10) + "\n")
	m.Write(msg)
	if !ed25519.Verify(v.key, m.Bytes(), sig[8:]) {
		return false
	}
	*v.seen = t
	return true
}

func cosigner(vkey string) (cosigVerifier, error) {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		return cosigVerifier{}, errors.New("malformed witness vkey")
	}
	name, idHex, keyB64 := parts[0], parts[1], parts[2]
	key, err := base64.StdEncoding.DecodeString(keyB64)
	if err != nil || len(key) != 1+ed25519.PublicKeySize || key[0] != algCosignatureV1 {
		return cosigVerifier{}, errors.New("not an Ed25519 cosignature key")
	}
	id, err := strconv.ParseUint(idHex, 16, 32)
	if err != nil {
		return cosigVerifier{}, errors.New("malformed key ID")
	}
	h := sha256.New()
	h.Write([]byte(name + "\n"))
	h.Write(key)
	if binary.BigEndian.Uint32(h.Sum(nil)) != uint32(id) {
		return cosigVerifier{}, errors.New("key ID does not match the key")
	}
	return cosigVerifier{name: name, hash: uint32(id), key: ed25519.PublicKey(key[1:]), seen: new(uint64)}, nil
}

func main() {
	if len(os.Args) != 3 {
		fmt.Println("usage: cosigcheck <log vkey> <witness vkey> < checkpoint")
		os.Exit(2)
	}
	logKey, err := note.NewVerifier(os.Args[1])
	if err != nil {
		fmt.Println("log vkey:", err)
		os.Exit(1)
	}
	witness, err := cosigner(os.Args[2])
	if err != nil {
		fmt.Println("witness vkey:", err)
		os.Exit(1)
	}
	msg, _ := io.ReadAll(os.Stdin)
	n, err := note.Open(msg, note.VerifierList(logKey, witness))
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	logSigned, witnessSigned := false, false
	for _, sig := range n.Sigs {
		if sig.Name == logKey.Name() && sig.Hash == logKey.KeyHash() {
			logSigned = true
		}
		if sig.Name == witness.name && sig.Hash == witness.hash {
			witnessSigned = true
		}
	}
	if !logSigned || !witnessSigned {
		fmt.Println("missing signature: log", logSigned, "witness", witnessSigned)
		os.Exit(1)
	}
	fmt.Println("ok", *witness.seen)
}
