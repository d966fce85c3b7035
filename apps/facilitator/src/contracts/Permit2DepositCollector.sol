// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// The Permit2 call the collector makes (a signature transfer with a witness).
interface IPermit2WitnessTransfer {
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

/// @title Permit2DepositCollector
/// @notice Development and test only: the x402 `batch-settlement` deposit collector for tokens
/// paid through Permit2, written for the local chain to the collector data the official x402
/// EVM facilitator sends. The payer signs a Permit2 transfer of the deposit with this contract
/// as spender and the channel id as witness (`DepositWitness(bytes32 channelId)`), so the
/// signature is good for one deposit into one channel; Permit2 moves the tokens straight to
/// the settlement contract, which credits the channel. A signed EIP-2612 approval of Permit2
/// for exactly the deposit may come along (gas sponsoring): it is tried first, and a refused
/// one is logged and the transfer goes on with the allowance Permit2 already has. Only the
/// settlement contract may call `collect`.
/// It is installed as code at the address the x402 packages expect,
/// 0x4020425FAf3B746C082C2f942b4E5159887B0005, and keeps no constructor state: Permit2's and
/// the settlement contract's addresses are constants.
contract Permit2DepositCollector {
    /// The x402 batch-settlement contract, at the address the x402 packages use.
    address public constant SETTLEMENT = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    /// Permit2's canonical address, the same on every EVM chain.
    IPermit2WitnessTransfer public constant PERMIT2 = IPermit2WitnessTransfer(0x000000000022D473030F116dDEE9F6B43aC78BA3);

    /// How the witness completes Permit2's `PermitWitnessTransferFrom` type: the member, then
    /// the referenced types in alphabetical order, as EIP-712 encodes them.
    string public constant DEPOSIT_WITNESS_TYPE_STRING =
        "DepositWitness witness)DepositWitness(bytes32 channelId)TokenPermissions(address token,uint256 amount)";

    bytes32 public constant DEPOSIT_WITNESS_TYPEHASH = keccak256("DepositWitness(bytes32 channelId)");

    /// The token refused the EIP-2612 approval (already used, unsupported, …); the deposit went
    /// on with whatever allowance Permit2 already had. `reason` is the raw revert data.
    event EIP2612PermitFailed(address indexed token, address indexed owner, bytes reason);

    error OnlySettlement();
    /// The EIP-2612 approval's value is not the deposit.
    error Permit2612AmountMismatch();

    /// Move `amount` of `token` from `payer` to the settlement contract on its Permit2
    /// signature. `collectorData` is `abi.encode(nonce, deadline, permit2Signature,
    /// eip2612PermitData)`, the last empty or `abi.encode(value, deadline, v, r, s)`; Permit2
    /// checks the deadline, the nonce and the signature over the token, the amount, this
    /// contract as spender and the channel id.
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external
    {
        if (msg.sender != SETTLEMENT) revert OnlySettlement();
        (uint256 nonce, uint256 deadline, bytes memory signature, bytes memory eip2612PermitData) =
            abi.decode(collectorData, (uint256, uint256, bytes, bytes));
        if (eip2612PermitData.length > 0) _tryPermit(payer, token, amount, eip2612PermitData);
        PERMIT2.permitWitnessTransferFrom(
            IPermit2WitnessTransfer.PermitTransferFrom({
                permitted: IPermit2WitnessTransfer.TokenPermissions({token: token, amount: amount}),
                nonce: nonce,
                deadline: deadline
            }),
            IPermit2WitnessTransfer.SignatureTransferDetails({to: SETTLEMENT, requestedAmount: amount}),
            payer,
            keccak256(abi.encode(DEPOSIT_WITNESS_TYPEHASH, channelId)),
            DEPOSIT_WITNESS_TYPE_STRING,
            signature
        );
    }

    function _tryPermit(address payer, address token, uint256 amount, bytes memory eip2612PermitData) private {
        (uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) =
            abi.decode(eip2612PermitData, (uint256, uint256, uint8, bytes32, bytes32));
        if (value != amount) revert Permit2612AmountMismatch();
        try IERC20Permit(token).permit(payer, address(PERMIT2), value, deadline, v, r, s) {}
        catch (bytes memory reason) {
            emit EIP2612PermitFailed(token, payer, reason);
        }
    }
}
