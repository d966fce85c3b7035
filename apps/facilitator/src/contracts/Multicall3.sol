// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @title Multicall3
/// @notice Development and test only: the calls of the Multicall3 interface that the x402
/// facilitator (`tryAggregate`, for its diagnosis of a failed simulation) and viem
/// (`aggregate3`, for `multicall`) make, written for the local chain. It is installed as code
/// at the canonical address 0xcA11bde05977b3631167028862bE2a173976CA11, where both look for it.
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    /// Every call must succeed; returns the block number and each call's return data.
    function aggregate(Call[] calldata calls) external payable returns (uint256 blockNumber, bytes[] memory returnData) {
        blockNumber = block.number;
        returnData = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            require(success, "Multicall3: call failed");
            returnData[i] = ret;
        }
    }

    /// Each call's outcome; reverts only when `requireSuccess` is set and a call failed.
    function tryAggregate(bool requireSuccess, Call[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            require(success || !requireSuccess, "Multicall3: call failed");
            returnData[i] = Result(success, ret);
        }
    }

    /// Each call's outcome; a call whose `allowFailure` is false must succeed.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            require(success || calls[i].allowFailure, "Multicall3: call failed");
            returnData[i] = Result(success, ret);
        }
    }

    function getEthBalance(address addr) external view returns (uint256 balance) {
        return addr.balance;
    }

    function getBlockNumber() external view returns (uint256 blockNumber) {
        return block.number;
    }

    function getCurrentBlockTimestamp() external view returns (uint256 timestamp) {
        return block.timestamp;
    }

    function getChainId() external view returns (uint256 chainid) {
        return block.chainid;
    }
}
