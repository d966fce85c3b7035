// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// The Permit2 calls the proxy makes (signature transfers with a witness).
interface ISignatureTransfer {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}

/// The EIP-2612 call of a token that lets a signature approve a spender.
interface IERC20Permit {
    function permit(
        address owner,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;
}

/// @title X402UptoPermit2Proxy
/// @notice Development and test only: the x402 `upto` settlement contract, written for the
/// local chain to the interface the official x402 EVM facilitator calls. A payer signs one
/// Permit2 transfer of at most N tokens with this contract as spender and a witness naming
/// the payee (`to`), the one facilitator allowed to settle it, and the earliest settlement
/// time. That facilitator later calls `settle` with the amount actually owed (at most N);
/// Permit2 checks the signature, spends the nonce and moves exactly that amount to the payee.
/// The payee cannot be changed (it is signed), and nobody but the named facilitator can pick
/// the amount.
/// It is installed as code at the address the x402 packages expect,
/// 0x4020A4f3b7b90ccA423B9fabCc0CE57C6C240002, and keeps no constructor state: Permit2's
/// canonical address is a constant, and the reentrancy lock starts open at zero.
contract X402UptoPermit2Proxy {
    /// Permit2's canonical address, the same on every EVM chain.
    ISignatureTransfer public constant PERMIT2 = ISignatureTransfer(0x000000000022D473030F116dDEE9F6B43aC78BA3);

    /// How the witness completes Permit2's `PermitWitnessTransferFrom` type: the member, then
    /// the referenced types in alphabetical order, as EIP-712 encodes them.
    string public constant WITNESS_TYPE_STRING =
        "Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,address facilitator,uint256 validAfter)";

    bytes32 public constant WITNESS_TYPEHASH = keccak256("Witness(address to,address facilitator,uint256 validAfter)");

    /// What the payer binds into its signature besides the token and the maximum.
    struct Witness {
        /// The payee.
        address to;
        /// The only caller that may settle.
        address facilitator;
        /// No settlement before this time (seconds since the epoch).
        uint256 validAfter;
    }

    /// A signed EIP-2612 approval of Permit2, for a payer that has not approved it on chain.
    struct EIP2612Permit {
        uint256 value;
        uint256 deadline;
        bytes32 r;
        bytes32 s;
        uint8 v;
    }

    /// 1 while a settlement runs: a token that calls back cannot settle twice in one go.
    uint256 private _locked;

    event Settled();
    event SettledWithPermit();
    /// The token refused the EIP-2612 approval (already used, unsupported, …); the settlement
    /// went on with whatever allowance Permit2 already had. `reason` is the raw revert data.
    event EIP2612PermitFailed(address indexed token, address indexed owner, bytes reason);

    error AmountExceedsPermitted();
    error UnauthorizedFacilitator();
    /// A settlement of zero: nothing to move (the facilitator settles zero without a transaction).
    error InvalidAmount();
    error InvalidOwner();
    error InvalidDestination();
    error PaymentTooEarly();
    error Permit2612AmountMismatch();
    error ReentrancyGuardReentrantCall();

    modifier nonReentrant() {
        if (_locked == 1) revert ReentrancyGuardReentrantCall();
        _locked = 1;
        _;
        _locked = 0;
    }

    /// Pay `witness.to` `amount` of the permitted token from `owner`, on `owner`'s Permit2
    /// signature. Only `witness.facilitator` may call, for at most the permitted amount.
    function settle(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        _checkCaller(permit, amount, witness);
        _settle(permit, amount, owner, witness, signature);
        emit Settled();
    }

    /// `settle`, after first trying the payer's EIP-2612 approval of Permit2 for exactly the
    /// permitted amount. A refused approval does not stop the settlement: an allowance given
    /// earlier may cover it.
    function settleWithPermit(
        EIP2612Permit calldata permit2612,
        ISignatureTransfer.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        _checkCaller(permit, amount, witness);
        if (permit2612.value != permit.permitted.amount) revert Permit2612AmountMismatch();
        try IERC20Permit(permit.permitted.token).permit(
            owner, address(PERMIT2), permit2612.value, permit2612.deadline, permit2612.v, permit2612.r, permit2612.s
        ) {} catch (bytes memory reason) {
            emit EIP2612PermitFailed(permit.permitted.token, owner, reason);
        }
        _settle(permit, amount, owner, witness, signature);
        emit SettledWithPermit();
    }

    function _checkCaller(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        uint256 amount,
        Witness calldata witness
    ) private view {
        if (amount > permit.permitted.amount) revert AmountExceedsPermitted();
        if (msg.sender != witness.facilitator) revert UnauthorizedFacilitator();
    }

    /// The checks Permit2 does not make (a zero amount, owner or payee; the start time), then
    /// the transfer: Permit2 checks the deadline, the nonce and the signature over the witness.
    function _settle(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) private {
        if (amount == 0) revert InvalidAmount();
        if (owner == address(0)) revert InvalidOwner();
        if (witness.to == address(0)) revert InvalidDestination();
        if (block.timestamp < witness.validAfter) revert PaymentTooEarly();
        bytes32 witnessHash = keccak256(abi.encode(WITNESS_TYPEHASH, witness.to, witness.facilitator, witness.validAfter));
        PERMIT2.permitWitnessTransferFrom(
            permit,
            ISignatureTransfer.SignatureTransferDetails({to: witness.to, requestedAmount: amount}),
            owner,
            witnessHash,
            WITNESS_TYPE_STRING,
            signature
        );
    }
}
