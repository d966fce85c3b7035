// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @title Permit2 (signature transfers with a witness)
/// @notice Development and test only: the part of Uniswap's Permit2 interface that the x402
/// `upto` scheme uses, written for the local chain. A payer approves this contract once on
/// the token; afterwards each payment is an EIP-712 signature that lets one named spender
/// (the x402 upto proxy) move up to a signed maximum once, before a deadline, with extra
/// data (the witness: payee, facilitator, start time) bound into the signature.
/// It is installed as code at Permit2's canonical address
/// 0x000000000022D473030F116dDEE9F6B43aC78BA3, where the x402 clients and facilitators look
/// for it. It keeps no constructor state (its EIP-712 domain is computed from its own address
/// and the chain id), so the code works wherever it is written.
/// Left out: allowance transfers (`approve`, `allowance`, `permit`, `transferFrom` with
/// amounts and expirations kept here), batch transfers, transfers without a witness,
/// `lockdown`, and 64-byte (EIP-2098) signatures.
contract Permit2 {
    /// What the signature lets the spender take: at most `amount` of `token`.
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    /// The signed message, less the spender (the caller) and the witness (passed on its own).
    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    /// Where the spender sends the tokens, and how many (at most the permitted amount).
    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("Permit2");
    bytes32 private constant TOKEN_PERMISSIONS_TYPEHASH =
        keccak256("TokenPermissions(address token,uint256 amount)");

    /// The primary type's definition up to its last member, the witness. The caller completes it
    /// with the witness member and the definitions of the referenced types, in EIP-712 order,
    /// e.g. `Witness witness)TokenPermissions(address token,uint256 amount)Witness(...)`.
    string private constant PERMIT_WITNESS_TRANSFER_FROM_STUB =
        "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";

    /// secp256k1n / 2: a larger `s` is the malleable twin of a valid signature (EIP-2).
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// `isValidSignature(bytes32,bytes)`'s answer for a good signature (EIP-1271).
    bytes4 private constant ERC1271_MAGIC_VALUE = 0x1626ba7e;

    /// Unordered nonces: bit `nonce & 0xff` of word `nonce >> 8` is set once the nonce is used
    /// (or cancelled), so payments can be signed and settled in any order.
    mapping(address owner => mapping(uint256 wordPosition => uint256 bits)) public nonceBitmap;

    /// `owner` set the bits of `mask` in word `word` of its nonces: those nonces can no longer be used.
    event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask);

    /// The deadline passed.
    error SignatureExpired(uint256 signatureDeadline);
    /// More than the permitted amount was requested.
    error InvalidAmount(uint256 maxAmount);
    /// The nonce was used or cancelled.
    error InvalidNonce();
    /// An ECDSA signature that is not 65 bytes.
    error InvalidSignatureLength();
    /// An ECDSA signature that recovers to no address, or has a malleable `s` or a bad `v`.
    error InvalidSignature();
    /// An ECDSA signature by someone other than the owner.
    error InvalidSigner();
    /// A contract owner (EIP-1271) that did not accept the signature.
    error InvalidContractSignature();
    /// The token's `transferFrom` failed without saying why, or answered `false`.
    error TransferFromFailed();

    /// The EIP-712 domain: name "Permit2", no version, this chain, this address.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, block.chainid, address(this)));
    }

    /// Move `transferDetails.requestedAmount` of the permitted token from `owner` to
    /// `transferDetails.to`, on `owner`'s signature over the permit, the caller as spender, and
    /// `witness` (the EIP-712 hash of the caller's witness struct, whose type
    /// `witnessTypeString` completes). Checks, in order: deadline, amount, nonce (then spent),
    /// signature; the transfer itself needs `owner`'s token allowance to this contract.
    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external {
        if (block.timestamp > permit.deadline) revert SignatureExpired(permit.deadline);
        if (transferDetails.requestedAmount > permit.permitted.amount) {
            revert InvalidAmount(permit.permitted.amount);
        }
        _useUnorderedNonce(owner, permit.nonce);

        bytes32 typeHash = keccak256(abi.encodePacked(PERMIT_WITNESS_TRANSFER_FROM_STUB, witnessTypeString));
        bytes32 permittedHash =
            keccak256(abi.encode(TOKEN_PERMISSIONS_TYPEHASH, permit.permitted.token, permit.permitted.amount));
        bytes32 structHash =
            keccak256(abi.encode(typeHash, permittedHash, msg.sender, permit.nonce, permit.deadline, witness));
        _checkSignature(keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash)), owner, signature);

        _transferFrom(permit.permitted.token, owner, transferDetails.to, transferDetails.requestedAmount);
    }

    /// Cancel the caller's nonces whose bits are set in `mask`, in word `wordPos`: how a payer
    /// withdraws a signed payment nobody has settled yet.
    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external {
        nonceBitmap[msg.sender][wordPos] |= mask;
        emit UnorderedNonceInvalidation(msg.sender, wordPos, mask);
    }

    /// Mark `nonce` used for `owner`; reverts if it already was.
    function _useUnorderedNonce(address owner, uint256 nonce) private {
        uint256 bit = 1 << (nonce & 0xff);
        uint256 flipped = nonceBitmap[owner][nonce >> 8] ^= bit;
        if (flipped & bit == 0) revert InvalidNonce();
    }

    /// An owner with code is asked (EIP-1271); any other owner must have signed with its key.
    function _checkSignature(bytes32 digest, address owner, bytes calldata signature) private view {
        if (owner.code.length > 0) {
            (bool ok, bytes memory answer) =
                owner.staticcall(abi.encodeWithSelector(ERC1271_MAGIC_VALUE, digest, signature));
            if (!ok || answer.length != 32 || abi.decode(answer, (bytes4)) != ERC1271_MAGIC_VALUE) {
                revert InvalidContractSignature();
            }
            return;
        }
        if (signature.length != 65) revert InvalidSignatureLength();
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > MAX_S || (v != 27 && v != 28)) revert InvalidSignature();
        address signer = ecrecover(digest, v, r, s);
        if (signer == address(0)) revert InvalidSignature();
        if (signer != owner) revert InvalidSigner();
    }

    /// `token.transferFrom(from, to, amount)`, for tokens that answer `true` and for those that
    /// answer nothing; the token's own revert reason is passed on.
    function _transferFrom(address token, address from, address to, uint256 amount) private {
        if (token.code.length == 0) revert TransferFromFailed();
        (bool ok, bytes memory answer) =
            token.call(abi.encodeWithSignature("transferFrom(address,address,uint256)", from, to, amount));
        if (!ok) {
            if (answer.length == 0) revert TransferFromFailed();
            assembly {
                revert(add(answer, 0x20), mload(answer))
            }
        }
        if (answer.length != 0 && (answer.length != 32 || !abi.decode(answer, (bool)))) {
            revert TransferFromFailed();
        }
    }
}
